import { REMINDER_SORTS, REMINDER_STATUSES, type TReminderType } from '@domain/reminders-constants';
import { listQueryParams, oneOfParam, parseListParams, type TListParams, uuidParam } from '@web/ui';

/** /reminders/{type}'s search params: the list's window and filters, and the reminder open in the drawer. */
export type TRemindersSearch = TListParams<(typeof REMINDER_SORTS)[number]> & {
  status?: (typeof REMINDER_STATUSES)[number];
  open?: string;
};

/** Tolerant: a stale or hand-edited URL falls back to the defaults. The page size is fixed. */
export function parseRemindersSearch(search: Record<string, unknown>): TRemindersSearch {
  return {
    ...parseListParams(search, REMINDER_SORTS),
    pageSize: undefined,
    status: oneOfParam(REMINDER_STATUSES, search.status),
    open: uuidParam(search.open),
  };
}

export const REMINDERS_PAGE_SIZE = 25;

export function remindersListInput(type: TReminderType, s: TRemindersSearch) {
  return {
    type,
    ...listQueryParams(s, { sort: 'remindAt', pageSize: REMINDERS_PAGE_SIZE }),
    status: s.status,
  };
}
