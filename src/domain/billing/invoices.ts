import { z } from 'zod';
import { ZEmail } from '../client-users';
import { zText } from '../fields';
import { ZPageInput } from '../pagination';
import {
  INVOICE_KINDS,
  INVOICE_STATUS_LABELS,
  INVOICE_STATUSES,
  MAX_AMOUNT,
  MAX_LINES,
  type TInvoiceDisplayStatus,
  type TInvoiceKind,
  type TInvoiceStatus,
} from './constants';
import { AMOUNT_TOO_HIGH, ZBillingDate, ZInvoiceIssue, ZInvoiceRef, ZLineInput } from './schemas';
import { invoiceDisplayStatus } from './status';

// The invoices screens' inputs (issue 35): the list and its export, sending, the client's billing
// contacts, credit notes. Shared by the forms and the procedures.

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

const ZInvoiceFilterFields = {
  search: ZPageInput.shape.search,
  status: z.enum(INVOICE_STATUS_FILTERS, 'Choose a status').optional(),
  clientId: z.uuid('Choose a client from the list').optional(),
  kind: z.enum(INVOICE_KINDS, 'Choose invoices or credit notes').optional(),
  /** Issue dates from and to, both included. */
  from: ZBillingDate.optional(),
  to: ZBillingDate.optional(),
};

const datesInOrder = (f: { from?: string; to?: string }) => !f.from || !f.to || f.from <= f.to;
const DATES_ORDER = { message: 'The first date must be on or before the last', path: ['to'] };

export const ZInvoiceListInput = ZPageInput.extend({
  sort: z.enum(INVOICE_SORTS).default('issueDate'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  ...ZInvoiceFilterFields,
}).refine(datesInOrder, DATES_ORDER);
export type TInvoiceListInput = z.input<typeof ZInvoiceListInput>;
export type TInvoiceListQuery = z.output<typeof ZInvoiceListInput>;

/** The export's query string: the list's filter and sort, every page. */
export const ZInvoiceExportQuery = z
  .object({
    sort: z.enum(INVOICE_SORTS).default('issueDate'),
    direction: z.enum(['asc', 'desc']).default('desc'),
    ...ZInvoiceFilterFields,
  })
  .refine(datesInOrder, DATES_ORDER);
export type TInvoiceExportQuery = z.output<typeof ZInvoiceExportQuery>;

export const INVOICE_EXPORT_PATH = '/api/billing/invoices/export.csv';
export const INVOICE_EXPORT_XLSX_PATH = '/api/billing/invoices/export.xlsx';
export const invoicePdfPath = (invoiceId: string) => `/api/billing/invoices/${invoiceId}/pdf`;
/** Where the client reads its invoices in the portal (the portal's own screen). */
export const portalInvoicesPath = (clientId: string) => `/clientportal/${clientId}/invoices`;

/** Billing contacts: who an invoice is mailed to. */
export const MAX_BILLING_EMAILS = 20;
const ZEmails = z
  .array(ZEmail)
  .max(MAX_BILLING_EMAILS, `At most ${MAX_BILLING_EMAILS} addresses`)
  .transform((emails) => [...new Set(emails)]);

export const ZInvoiceSend = ZInvoiceRef.extend({
  /** Left out: the client's billing contacts, else the client's own email. */
  to: ZEmails.optional(),
});
export type TInvoiceSend = z.output<typeof ZInvoiceSend>;

/** "Issue and send": the draft is numbered and mailed in one transaction. */
export const ZInvoiceIssueAndSend = ZInvoiceIssue.extend({ to: ZEmails.optional() });

export const ZNewInvoice = z.object({ clientId: z.uuid('Choose a client') });

export const ZClientRef = z.object({ clientId: z.uuid('Choose a client') });
export const ZClientBillingSet = ZClientRef.extend({
  emails: ZEmails,
  remindersPaused: z.boolean(),
});
export type TClientBillingSetInput = z.input<typeof ZClientBillingSet>;
export type TClientBillingSet = z.output<typeof ZClientBillingSet>;

/** A credit note against an issued invoice: its own lines, or the whole invoice ("full credit"). */
export const ZCreditNoteRaise = ZInvoiceRef.extend({
  reason: zText({ min: 1, max: 500, label: 'Reason' }),
  full: z.boolean().default(false),
  lines: z.array(ZLineInput).max(MAX_LINES, `A credit note holds at most ${MAX_LINES} lines`).default([]),
}).refine((c) => c.full || c.lines.length > 0, {
  message: 'A credit note needs at least one line, or credit the whole invoice',
  path: ['lines'],
});
export type TCreditNoteRaiseInput = z.input<typeof ZCreditNoteRaise>;
export type TCreditNoteRaise = z.output<typeof ZCreditNoteRaise>;

export const ZClientOptionsInput = z.object({
  search: ZPageInput.shape.search,
  clientId: z.uuid().optional(),
});

/** Typed quantities ("2.5", "1,5") in thousandths, as lines hold them. */
export function parseQuantity(text: string): { quantityMilli: number } | { error: string } {
  const m = /^(\d{1,7})(?:[.,](\d{0,3}))?$/.exec(text.trim());
  if (!m) return { error: 'Type a quantity like 1, 2.5 or 0.25' };
  const milli = Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0') || '0');
  return milli > 0 ? { quantityMilli: milli } : { error: 'The quantity must be more than zero' };
}

/** Thousandths back as the quantity a person edits: 2500 → "2.5". */
export function quantityText(milli: number): string {
  const whole = Math.floor(milli / 1000);
  const rest = String(milli % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

/** A tax rate typed as a percentage ("18", "2.5") in basis points. */
export function parseTaxPercent(text: string): { taxRateBp: number } | { error: string } {
  const value = text.trim();
  if (!value) return { taxRateBp: 0 };
  const m = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(value);
  if (!m) return { error: 'Type a rate like 18 or 2.5' };
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
  return bp <= 10_000 ? { taxRateBp: bp } : { error: 'A tax rate cannot be over 100%' };
}

export const taxPercentText = (bp: number) => quantityText(bp * 10);

/**
 * An amount typed in major units ("150000", "1500.50" or "1500,50"; no grouping) in minor units, up
 * to the largest amount billing holds; blank is zero. The rates screen's parseRate stops at an
 * hourly rate's ceiling, which a fixed fee may pass.
 */
export function parseMoney(text: string, digits: number): { amount: number } | { error: string } {
  const value = text.trim();
  if (!value) return { amount: 0 };
  const m = /^(\d{1,14})(?:[.,](\d*))?$/.exec(value);
  if (!m) return { error: 'Type an amount like 1500 or 1500.50' };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits)
    return { error: digits ? `Use at most ${digits} decimal places` : 'This currency has no decimals' };
  const amount = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return amount <= MAX_AMOUNT ? { amount } : { error: AMOUNT_TOO_HIGH };
}
