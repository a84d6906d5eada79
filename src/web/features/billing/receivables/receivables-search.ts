import {
  AGING_DIMENSIONS,
  AGING_SORTS,
  type TAgingDimension,
  type TAgingSort,
} from '@domain/billing/payment-list';
import { oneOfParam, parseListParams, type TListParams } from '@web/ui';

/**
 * /billing/receivables' URL: what the aging is grouped by (`dimension`: the reports' `by` takes other
 * values, and every route's search shares one type), page, sort and search.
 */
export type TReceivablesSearch = TListParams<TAgingSort> & { dimension?: Exclude<TAgingDimension, 'client'> };

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseReceivablesSearch(search: Record<string, unknown>): TReceivablesSearch {
  return {
    ...parseListParams(search, AGING_SORTS),
    // By client is the default, and left out of the URL.
    dimension: oneOfParam(
      AGING_DIMENSIONS.filter((d): d is Exclude<TAgingDimension, 'client'> => d !== 'client'),
      search.dimension,
    ),
  };
}
