import { parseListParams, type TListParams } from '@web/ui';

/** The admin lists' search params (services, groups, templates, a client's services): the common ones and "archived". */
export type TListSearch = TListParams & { archived?: boolean };

export function parseListSearch(search: Record<string, unknown>): TListSearch {
  return { ...parseListParams(search), archived: search.archived === true ? true : undefined };
}
