import type { TWipSort } from '@domain/billing/wip';
import { parseListParams, type TListParams } from '@web/ui';

// The WIP list's URL. The sort keys are spelled here rather than imported, so the route file stays
// out of the billing schemas' weight (the first page carries every route file).
export const WIP_LIST_SORTS = [
  'value',
  'client',
  'time',
  'fees',
  'disbursements',
] as const satisfies readonly TWipSort[];

export type TWipSearch = TListParams<TWipSort>;

export function parseWipSearch(search: Record<string, unknown>): TWipSearch {
  return parseListParams(search, WIP_LIST_SORTS);
}
