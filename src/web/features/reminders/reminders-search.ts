import { REMINDER_SORTS, REMINDER_STATUSES, type TReminderType } from '@domain/reminders';

/** /reminders/{type}'s search params: the list's window and filters, and the reminder open in the drawer. */
export type TRemindersSearch = {
  page?: number;
  sort?: (typeof REMINDER_SORTS)[number];
  direction?: 'asc' | 'desc';
  search?: string;
  status?: (typeof REMINDER_STATUSES)[number];
  open?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const oneOf = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;

/** Tolerant: a stale or hand-edited URL falls back to the defaults. */
export function parseRemindersSearch(search: Record<string, unknown>): TRemindersSearch {
  const page = typeof search.page === 'number' && Number.isInteger(search.page) && search.page > 0;
  const text = typeof search.search === 'string' ? search.search.slice(0, 200).trim() : '';
  return {
    page: page ? (search.page as number) : undefined,
    sort: oneOf(REMINDER_SORTS, search.sort),
    direction: oneOf(['asc', 'desc'] as const, search.direction),
    search: text || undefined,
    status: oneOf(REMINDER_STATUSES, search.status),
    open: typeof search.open === 'string' && UUID.test(search.open) ? search.open : undefined,
  };
}

export const REMINDERS_PAGE_SIZE = 25;

export function remindersListInput(type: TReminderType, s: TRemindersSearch) {
  return {
    type,
    page: s.page ?? 1,
    pageSize: REMINDERS_PAGE_SIZE,
    sort: s.sort ?? 'remindAt',
    direction: s.direction ?? 'asc',
    search: s.search,
    status: s.status,
  };
}
