import { type TVaultListInput, VAULT_SORTS } from '@domain/vault';

/** /vault/passwords' search params: page, sort, search and filters live in the URL. */
export type TPasswordsSearch = {
  page?: number;
  pageSize?: number;
  sort?: (typeof VAULT_SORTS)[number];
  direction?: 'asc' | 'desc';
  search?: string;
  /** A client's id, or 'firm' for the firm-wide entries. */
  client?: string;
  tag?: string;
};

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
const oneOf = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parsePasswordsSearch(search: Record<string, unknown>): TPasswordsSearch {
  const text = typeof search.search === 'string' ? search.search.slice(0, 200) : undefined;
  const client =
    search.client === 'firm' || (typeof search.client === 'string' && UUID.test(search.client))
      ? (search.client as string)
      : undefined;
  const tag = typeof search.tag === 'string' && search.tag.length <= 40 ? search.tag : undefined;
  return {
    page: positive(search.page),
    pageSize: positive(search.pageSize) && Math.min(positive(search.pageSize) ?? 0, 100),
    sort: oneOf(VAULT_SORTS, search.sort),
    direction: oneOf(['asc', 'desc'] as const, search.direction),
    search: text || undefined,
    client,
    tag: tag || undefined,
  };
}

export const PASSWORDS_PAGE_SIZE = 25;

export function passwordsListInput(search: TPasswordsSearch): TVaultListInput {
  return {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? PASSWORDS_PAGE_SIZE,
    sort: search.sort ?? 'title',
    direction: search.direction ?? 'asc',
    ...(search.search ? { search: search.search } : {}),
    ...(search.client ? { client: search.client } : {}),
    ...(search.tag ? { tag: search.tag } : {}),
  };
}
