import { z } from 'zod';
import { ZEmail } from '../client-users';
import { zText } from '../fields';
import { ZPageInput } from '../pagination';
import { INVOICE_KINDS, MAX_AMOUNT, MAX_LINES } from './constants';
import { INVOICE_SORTS, INVOICE_STATUS_FILTERS } from './invoice-list';
import { AMOUNT_TOO_HIGH, ZBillingDate, ZInvoiceIssue, ZInvoiceRef, ZLineInput } from './schemas';

// The invoices screens' inputs (issue 35): the list and its export, sending, the client's billing
// contacts, credit notes. Shared by the forms and the procedures.

export * from './invoice-list';

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

/** Billing contacts: who an invoice is mailed to. */
export const MAX_BILLING_EMAILS = 20;
const ZEmails = z
  .array(ZEmail)
  .max(MAX_BILLING_EMAILS, `At most ${MAX_BILLING_EMAILS} addresses`)
  .transform((emails) => [...new Set(emails)]);

/** Addresses typed in one box, separated by commas, spaces or new lines: the send dialog's field. */
export const ZEmailList = zText({ max: 4000, label: 'Addresses' })
  .transform((text) => text.split(/[\s,;]+/).filter(Boolean))
  .superRefine((list, ctx) => {
    if (!list.length) ctx.addIssue({ code: 'custom', message: 'Add at least one address' });
    if (list.length > MAX_BILLING_EMAILS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_BILLING_EMAILS} addresses` });
    const bad = list.find((email) => !ZEmail.safeParse(email).success);
    if (bad) ctx.addIssue({ code: 'custom', message: `${bad} is not an email address` });
  })
  .transform((list) => [...new Set(list.map((email) => email.toLowerCase()))]);
export const ZSendForm = z.object({ to: ZEmailList });

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
export const ZClientMailingsInput = ZClientRef.extend({
  page: ZPageInput.shape.page,
  pageSize: ZPageInput.shape.pageSize,
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
