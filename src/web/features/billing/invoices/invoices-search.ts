import { INVOICE_KINDS } from '@domain/billing/constants';
import { INVOICE_SORTS, INVOICE_STATUS_FILTERS, type TInvoiceSort } from '@domain/billing/invoice-list';
import type { TInvoiceListInput } from '@domain/billing/invoices';
import { isIsoDate } from '@domain/days';
import { listQueryParams, oneOfParam, parseListParams, type TListParams, uuidParam } from '@web/ui';

/** /billing/invoices' URL: page, sort, search and filters, so a view can be shared. */
export type TInvoicesSearch = TListParams<TInvoiceSort> & {
  status?: (typeof INVOICE_STATUS_FILTERS)[number];
  kind?: (typeof INVOICE_KINDS)[number];
  clientId?: string;
  from?: string;
  to?: string;
};

const dayParam = (value: unknown) => (typeof value === 'string' && isIsoDate(value) ? value : undefined);

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseInvoicesSearch(search: Record<string, unknown>): TInvoicesSearch {
  return {
    ...parseListParams(search, INVOICE_SORTS),
    status: oneOfParam(INVOICE_STATUS_FILTERS, search.status),
    kind: oneOfParam(INVOICE_KINDS, search.kind),
    clientId: uuidParam(search.clientId),
    from: dayParam(search.from),
    to: dayParam(search.to),
  };
}

export const INVOICES_PAGE_SIZE = 25;

export function invoicesListInput(search: TInvoicesSearch, clientId?: string): TInvoiceListInput {
  const from = search.from;
  const to = search.to && (!from || search.to >= from) ? search.to : undefined;
  return {
    ...listQueryParams(search, { sort: 'issueDate', direction: 'desc', pageSize: INVOICES_PAGE_SIZE }),
    ...(search.status ? { status: search.status } : {}),
    ...(search.kind ? { kind: search.kind } : {}),
    ...((clientId ?? search.clientId) ? { clientId: clientId ?? search.clientId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}
