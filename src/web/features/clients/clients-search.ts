import {
  ARCHIVED_FILTERS,
  CLIENT_SORTS,
  CLIENT_STATUSES,
  CLIENT_TYPES,
  type TClientListInput,
} from '@domain/clients';

/** /clients' search params: page, sort, search and filters live in the URL so a view can be shared. */
export type TClientsSearch = {
  page?: number;
  pageSize?: number;
  sort?: (typeof CLIENT_SORTS)[number];
  direction?: 'asc' | 'desc';
  search?: string;
  type?: (typeof CLIENT_TYPES)[number];
  groupId?: string;
  status?: (typeof CLIENT_STATUSES)[number];
  archived?: (typeof ARCHIVED_FILTERS)[number];
};

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
const oneOf = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseClientsSearch(search: Record<string, unknown>): TClientsSearch {
  const text = typeof search.search === 'string' ? search.search.slice(0, 200) : undefined;
  return {
    page: positive(search.page),
    pageSize: positive(search.pageSize) && Math.min(positive(search.pageSize) ?? 0, 200),
    sort: oneOf(CLIENT_SORTS, search.sort),
    direction: oneOf(['asc', 'desc'] as const, search.direction),
    search: text || undefined,
    type: oneOf(CLIENT_TYPES, search.type),
    groupId: typeof search.groupId === 'string' && UUID.test(search.groupId) ? search.groupId : undefined,
    status: oneOf(CLIENT_STATUSES, search.status),
    archived: oneOf(ARCHIVED_FILTERS, search.archived),
  };
}

export const CLIENTS_PAGE_SIZE = 25;

export function clientsListInput(search: TClientsSearch): TClientListInput {
  return {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? CLIENTS_PAGE_SIZE,
    sort: search.sort ?? 'name',
    direction: search.direction ?? 'asc',
    archived: search.archived ?? 'hide',
    ...(search.search ? { search: search.search } : {}),
    ...(search.type ? { type: search.type } : {}),
    ...(search.groupId ? { groupId: search.groupId } : {}),
    ...(search.status ? { status: search.status } : {}),
  };
}
