import type { TClientListInput } from '@domain/clients';
import { ARCHIVED_FILTERS, CLIENT_SORTS, CLIENT_STATUSES, CLIENT_TYPES } from '@domain/clients-constants';
import { listQueryParams, oneOfParam, parseListParams, type TListParams, uuidParam } from '@web/ui';

/** /clients' search params: page, sort, search and filters live in the URL so a view can be shared. */
export type TClientsSearch = TListParams<(typeof CLIENT_SORTS)[number]> & {
  type?: (typeof CLIENT_TYPES)[number];
  groupId?: string;
  status?: (typeof CLIENT_STATUSES)[number];
  archived?: (typeof ARCHIVED_FILTERS)[number];
  prospects?: (typeof ARCHIVED_FILTERS)[number];
};

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseClientsSearch(search: Record<string, unknown>): TClientsSearch {
  return {
    ...parseListParams(search, CLIENT_SORTS),
    type: oneOfParam(CLIENT_TYPES, search.type),
    groupId: uuidParam(search.groupId),
    status: oneOfParam(CLIENT_STATUSES, search.status),
    archived: oneOfParam(ARCHIVED_FILTERS, search.archived),
    prospects: oneOfParam(ARCHIVED_FILTERS, search.prospects),
  };
}

export const CLIENTS_PAGE_SIZE = 25;

export function clientsListInput(search: TClientsSearch): TClientListInput {
  return {
    ...listQueryParams(search, { sort: 'name', pageSize: CLIENTS_PAGE_SIZE }),
    archived: search.archived ?? 'hide',
    prospects: search.prospects ?? 'hide',
    ...(search.type ? { type: search.type } : {}),
    ...(search.groupId ? { groupId: search.groupId } : {}),
    ...(search.status ? { status: search.status } : {}),
  };
}
