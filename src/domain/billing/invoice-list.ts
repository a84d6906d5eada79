import {
  INVOICE_STATUS_LABELS,
  INVOICE_STATUSES,
  type TInvoiceDisplayStatus,
  type TInvoiceKind,
  type TInvoiceStatus,
} from './constants';
import { invoiceDisplayStatus } from './status';

// The invoices list's vocabulary, without zod: route files import it to read their URL, and they
// are in every first page.

export const INVOICE_SORTS = ['issueDate', 'number', 'client', 'total', 'balance', 'dueDate'] as const;
export type TInvoiceSort = (typeof INVOICE_SORTS)[number];

/**
 * The list's status filter: what the badge shows (Overdue is derived with the firm's today, so
 * "Sent" leaves out the sent ones that are overdue), plus Outstanding for every open one.
 */
export const INVOICE_STATUS_FILTERS = ['outstanding', 'overdue', ...INVOICE_STATUSES] as const;
export type TInvoiceStatusFilter = (typeof INVOICE_STATUS_FILTERS)[number];
export const INVOICE_STATUS_FILTER_LABELS: Record<TInvoiceStatusFilter, string> = {
  outstanding: 'Outstanding',
  ...INVOICE_STATUS_LABELS,
};

/** The badge's tone per status, in SPEC §4's spirit: overdue red, paid green, draft grey. */
export const INVOICE_STATUS_TONES: Record<
  TInvoiceDisplayStatus,
  'grey' | 'blue' | 'yellow' | 'green' | 'red'
> = {
  draft: 'grey',
  issued: 'blue',
  sent: 'blue',
  partly_paid: 'yellow',
  paid: 'green',
  void: 'grey',
  overdue: 'red',
};

/** What a document's badge shows: an invoice may be Overdue; a credit note never is. */
export function documentStatus(
  doc: { kind: TInvoiceKind; status: TInvoiceStatus; dueDate: string | null },
  today: string,
): TInvoiceDisplayStatus {
  return doc.kind === 'credit_note' ? doc.status : invoiceDisplayStatus(doc, today);
}

export const INVOICE_KIND_LABELS = { invoice: 'Invoice', credit_note: 'Credit note' } as const;

export const INVOICE_EXPORT_PATH = '/api/billing/invoices/export.csv';
export const INVOICE_EXPORT_XLSX_PATH = '/api/billing/invoices/export.xlsx';
export const invoicePdfPath = (invoiceId: string) => `/api/billing/invoices/${invoiceId}/pdf`;
/** Where the client reads its invoices in the portal (the portal's own screen). */
export const portalInvoicesPath = (clientId: string) => `/clientportal/${clientId}/invoices`;
