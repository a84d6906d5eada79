/** A list screen's search params: page, sort and search, tolerant of a hand-edited URL. */
export type TListSearch = {
  page?: number;
  pageSize?: number;
  sort?: string;
  direction?: 'asc' | 'desc';
  search?: string;
  archived?: boolean;
};

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

export function parseListSearch(search: Record<string, unknown>): TListSearch {
  const text = typeof search.search === 'string' ? search.search.slice(0, 200) : undefined;
  const pageSize = positive(search.pageSize);
  return {
    page: positive(search.page),
    pageSize: pageSize ? Math.min(pageSize, 200) : undefined,
    sort: typeof search.sort === 'string' ? search.sort.slice(0, 32) : undefined,
    direction: search.direction === 'asc' || search.direction === 'desc' ? search.direction : undefined,
    search: text || undefined,
    archived: search.archived === true ? true : undefined,
  };
}

export const LIST_PAGE_SIZE = 25;

export function listInput<S extends string>(search: TListSearch, sorts: readonly S[], fallback: S) {
  const sort = sorts.includes(search.sort as S) ? (search.sort as S) : fallback;
  return {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? LIST_PAGE_SIZE,
    sort,
    direction: search.direction ?? 'asc',
    ...(search.search ? { search: search.search } : {}),
  };
}
