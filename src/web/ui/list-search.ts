import type { SortDirection } from './data-table';

/** The part of a list screen's URL every list has: its page, page size, sort and search text. */
export type TListParams<S extends string = string> = {
  page?: number;
  pageSize?: number;
  sort?: S;
  direction?: SortDirection;
  search?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A whole number above zero, or nothing: a hand-edited `page=-1` or `page=x` is dropped. */
export const positiveParam = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** One of the allowed values, or nothing. */
export const oneOfParam = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;

/** A record's id, or nothing (a stale or mangled link falls back to no filter). */
export const uuidParam = (value: unknown) =>
  typeof value === 'string' && UUID.test(value) ? value : undefined;

/** Free text, trimmed and cut to `max` characters; empty is nothing. */
export const textParam = (value: unknown, max = 200) =>
  (typeof value === 'string' ? value.slice(0, max).trim() : '') || undefined;

/**
 * Reads the common part of a list's URL, tolerant of a hand-edited or stale one: what does not
 * parse falls back to the default rather than failing the route. With `sorts`, an unknown sort key is
 * dropped; without, any short key passes (the screen checks it against its own keys).
 */
export function parseListParams<S extends string = string>(
  search: Record<string, unknown>,
  sorts?: readonly S[],
  maxPageSize = 200,
): TListParams<S> {
  const pageSize = positiveParam(search.pageSize);
  const sort = sorts
    ? oneOfParam(sorts, search.sort)
    : typeof search.sort === 'string'
      ? (search.sort.slice(0, 32) as S)
      : undefined;
  return {
    page: positiveParam(search.page),
    pageSize: pageSize ? Math.min(pageSize, maxPageSize) : undefined,
    sort,
    direction: oneOfParam(['asc', 'desc'] as const, search.direction),
    search: textParam(search.search),
  };
}

export const LIST_PAGE_SIZE = 25;

/** The page and page size from the URL's, for a list with no sort or search of its own. */
export function listPageParams(params: TListParams<string>, pageSize = LIST_PAGE_SIZE) {
  return { page: params.page ?? 1, pageSize: params.pageSize ?? pageSize };
}

/**
 * The list query's paging, sort and search from the URL's: the page's own defaults fill what the URL
 * leaves out. A URL whose sort was not checked on parsing passes the list's `sorts`, and a key outside
 * them falls back to the default.
 */
export function listQueryParams<P extends string, S extends string = P>(
  params: TListParams<P>,
  defaults: { sort: NoInfer<S>; sorts?: readonly S[]; direction?: SortDirection; pageSize?: number },
) {
  const sort = params.sort as string | undefined;
  const known = sort !== undefined && (!defaults.sorts || defaults.sorts.includes(sort as S));
  return {
    ...listPageParams(params, defaults.pageSize),
    sort: known ? (sort as S) : defaults.sort,
    direction: params.direction ?? defaults.direction ?? ('asc' as SortDirection),
    ...(params.search ? { search: params.search } : {}),
  };
}
