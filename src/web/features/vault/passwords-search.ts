import type { TVaultListInput } from '@domain/vault';
import { VAULT_SORTS } from '@domain/vault-constants';
import { listQueryParams, parseListParams, type TListParams, uuidParam } from '@web/ui';

/** /vault/passwords' search params: page, sort, search and filters live in the URL. */
export type TPasswordsSearch = TListParams<(typeof VAULT_SORTS)[number]> & {
  /** A client's id, or 'firm' for the firm-wide entries. */
  client?: string;
  tag?: string;
};

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parsePasswordsSearch(search: Record<string, unknown>): TPasswordsSearch {
  const tag = typeof search.tag === 'string' && search.tag.length <= 40 ? search.tag : undefined;
  return {
    ...parseListParams(search, VAULT_SORTS, 100),
    client: search.client === 'firm' ? 'firm' : uuidParam(search.client),
    tag: tag || undefined,
  };
}

export const PASSWORDS_PAGE_SIZE = 25;

export function passwordsListInput(search: TPasswordsSearch): TVaultListInput {
  return {
    ...listQueryParams(search, { sort: 'title', pageSize: PASSWORDS_PAGE_SIZE }),
    ...(search.client ? { client: search.client } : {}),
    ...(search.tag ? { tag: search.tag } : {}),
  };
}
