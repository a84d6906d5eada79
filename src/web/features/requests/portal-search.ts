export type TPortalRequestSearch = { page?: number };

/** ?page=2; anything else is dropped. */
export function ZPortalRequestSearch(search: Record<string, unknown>): TPortalRequestSearch {
  const page = Number(search.page);
  return Number.isInteger(page) && page > 1 && page < 10_000 ? { page } : {};
}
