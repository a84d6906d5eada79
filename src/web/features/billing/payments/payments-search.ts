import { PAYMENT_KINDS, PAYMENT_METHODS } from '@domain/billing/constants';
import { PAYMENT_SORTS, TDS_FILTERS, YES_NO } from '@domain/billing/payment-list';
import type { TPaymentListInput } from '@domain/billing/payments';
import { isIsoDate } from '@domain/days';
import { listQueryParams, oneOfParam, parseListParams, type TListParams, uuidParam } from '@web/ui';

/** /billing/payments' URL: page, sort, search and filters, so a view can be shared. */
export type TPaymentsSearch = TListParams<(typeof PAYMENT_SORTS)[number]> & {
  method?: (typeof PAYMENT_METHODS)[number];
  kind?: (typeof PAYMENT_KINDS)[number];
  tds?: (typeof TDS_FILTERS)[number];
  reversed?: (typeof YES_NO)[number];
  clientId?: string;
  from?: string;
  to?: string;
};

const dayParam = (value: unknown) => (typeof value === 'string' && isIsoDate(value) ? value : undefined);

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parsePaymentsSearch(search: Record<string, unknown>): TPaymentsSearch {
  return {
    ...parseListParams(search, PAYMENT_SORTS),
    method: oneOfParam(PAYMENT_METHODS, search.method),
    kind: oneOfParam(PAYMENT_KINDS, search.kind),
    tds: oneOfParam(TDS_FILTERS, search.tds),
    reversed: oneOfParam(YES_NO, search.reversed),
    clientId: uuidParam(search.clientId),
    from: dayParam(search.from),
    to: dayParam(search.to),
  };
}

export const PAYMENTS_PAGE_SIZE = 25;

/** The list's query (and, without its page, the export's filter) from the URL. */
export function paymentsListInput(search: TPaymentsSearch, clientId?: string): TPaymentListInput {
  const from = search.from;
  const to = search.to && (!from || search.to >= from) ? search.to : undefined;
  const filters = {
    method: search.method,
    kind: search.kind,
    tds: search.tds,
    reversed: search.reversed,
    clientId: clientId ?? search.clientId,
    from,
    to,
  };
  return {
    ...listQueryParams(search, { sort: 'receivedOn', direction: 'desc', pageSize: PAYMENTS_PAGE_SIZE }),
    ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
  };
}
