import { REQUEST_LIST_STATUS } from '@domain/requests/constants';
import type { TRequestListInput } from '@domain/requests/schemas';
import { listQueryParams, oneOfParam, parseListParams, type TListParams, uuidParam } from '@web/ui';

export const REQUEST_SORTS = ['createdAt', 'dueDate', 'client'] as const;
type TRequestSort = (typeof REQUEST_SORTS)[number];

/** /requests' URL (and a client's Requests tab): page, sort, search and filters, so a view can be shared. */
export type TRequestsSearch = TListParams<TRequestSort> & {
  status?: (typeof REQUEST_LIST_STATUS)[number];
  clientId?: string;
  overdue?: 'yes';
};

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseRequestsSearch(search: Record<string, unknown>): TRequestsSearch {
  return {
    ...parseListParams(search, REQUEST_SORTS),
    status: oneOfParam(REQUEST_LIST_STATUS, search.status),
    clientId: uuidParam(search.clientId),
    overdue: oneOfParam(['yes'] as const, search.overdue),
  };
}

export const REQUESTS_PAGE_SIZE = 25;

export function requestsListInput(search: TRequestsSearch, clientId?: string): TRequestListInput {
  const client = clientId ?? search.clientId;
  return {
    ...listQueryParams(search, { sort: 'createdAt', direction: 'desc', pageSize: REQUESTS_PAGE_SIZE }),
    ...(search.status ? { status: search.status } : {}),
    ...(client ? { clientId: client } : {}),
    ...(search.overdue ? { overdue: true } : {}),
  };
}
