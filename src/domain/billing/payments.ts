import { z } from 'zod';
import { daysApart } from '../days';
import { zString, zText } from '../fields';
import { ZPageInput } from '../pagination';
import { MAX_AMOUNT, PAYMENT_KINDS, PAYMENT_METHODS } from './constants';
import { AGING_DIMENSIONS, AGING_SORTS, PAYMENT_SORTS, TDS_FILTERS, YES_NO } from './payment-list';
import { AMOUNT_TOO_HIGH, ZBillingDate, zAmount, zPositiveAmount } from './schemas';

// Payments, credit, receivables and statements (issue 35): what the forms and the procedures share.
// Amounts are integer minor units; a form turns typed text into them with parseAmount. The lists'
// vocabulary (sorts, filters) is in payment-list.ts, which route files read without zod.

export {
  AGING_DIMENSION_LABELS,
  AGING_DIMENSIONS,
  AGING_SORTS,
  PAYMENT_SORTS,
  type TAgingDimension,
  type TAgingSort,
  TDS_FILTER_LABELS,
  TDS_FILTERS,
  YES_NO,
} from './payment-list';

export const AMOUNT_FORMAT = 'Type an amount like 15000 or 15000.50';

/** Thousands grouped by commas, the Western way (150,000.50) or the Indian way (1,50,000.50). */
const GROUPED = /^(\d{1,3}(,\d{3})+|\d{1,3}(,\d{2})*,\d{3})(\.\d*)?$/;

/**
 * Minor units from what a person typed in major units: "15000", "15000.50", "15,000", "1,50,000.50",
 * or "15000,50" with a decimal comma. Commas that group thousands are read as grouping, never as a
 * decimal point ("15,000" is fifteen thousand, not fifteen). Blank is zero.
 */
export function parseAmount(text: string, digits: number): { amount: number } | { error: string } {
  let value = text.trim().replace(/[\s\u00a0']/g, '');
  if (value === '') return { amount: 0 };
  if (GROUPED.test(value)) value = value.replace(/,/g, '');
  const m = /^(\d{1,14})(?:[.,](\d*))?$/.exec(value);
  if (!m) return { error: AMOUNT_FORMAT };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits)
    return { error: digits ? `Use at most ${digits} decimal places` : 'This currency has no decimals' };
  const amount = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return amount > MAX_AMOUNT ? { error: AMOUNT_TOO_HIGH } : { amount };
}

/** Minor units back as the plain amount a person edits ("1500.50"): no grouping, no symbol. */
export function amountText(amount: number, digits: number): string {
  if (!digits) return String(amount);
  const major = Math.floor(amount / 10 ** digits);
  const minor = String(amount % 10 ** digits).padStart(digits, '0');
  return `${major}.${minor}`;
}

const zMethod = z.enum(PAYMENT_METHODS, { error: 'Choose how it was paid' });
const zReference = zText({ max: 100, label: 'Reference' }).default('');
const zNotes = zText({ max: 1000, label: 'Notes' }).default('');

/** TDS sections as the Income-tax Act numbers them: 194J, 194C, 194-IA, 195. */
export const ZTdsSection = zString()
  .trim()
  .max(12, 'A TDS section is at most 12 characters')
  .regex(/^([0-9]{3}[A-Za-z0-9-]{0,8})?$/, 'A TDS section looks like 194J or 194C')
  .nullish()
  .transform((v) => (v ? v.toUpperCase() : null));

export const ZAllocationInput = z.object({
  invoiceId: z.uuid('Choose an invoice'),
  amount: zPositiveAmount('Amount allocated'),
});
export type TAllocationInput = z.output<typeof ZAllocationInput>;

const ZAllocations = z
  .array(ZAllocationInput)
  .max(200, 'Allocate to at most 200 invoices at once')
  .refine((list) => new Set(list.map((a) => a.invoiceId)).size === list.length, {
    message: 'An invoice is listed twice: allocate to it once',
  });

/** What a receipt settles: the money received, the tax the client deducted, the bank's charges. */
export const receiptValue = (p: { amount: number; tdsAmount: number; bankCharges: number }) =>
  p.amount + p.tdsAmount + p.bankCharges;

export const ZPaymentCreate = z
  .object({
    clientId: z.uuid('Choose a client'),
    receivedOn: ZBillingDate,
    method: zMethod,
    reference: zReference,
    amount: zAmount('Amount received'),
    tdsAmount: zAmount('TDS').default(0),
    tdsSection: ZTdsSection,
    tdsCertificateReceived: z.boolean().default(false),
    bankCharges: zAmount('Bank charges').default(0),
    notes: zNotes,
    allocations: ZAllocations.default([]),
  })
  .refine((p) => receiptValue(p) > 0, { message: 'Enter the amount received', path: ['amount'] })
  .refine((p) => receiptValue(p) <= MAX_AMOUNT, { message: AMOUNT_TOO_HIGH, path: ['amount'] })
  .refine((p) => p.allocations.reduce((s, a) => s + a.amount, 0) <= receiptValue(p), {
    message: 'More is allocated than was received with TDS and bank charges',
    path: ['allocations'],
  });
export type TPaymentCreate = z.output<typeof ZPaymentCreate>;
export type TPaymentCreateInput = z.input<typeof ZPaymentCreate>;

export const ZCreditApply = z.object({
  clientId: z.uuid('Choose a client'),
  appliedOn: ZBillingDate.optional(),
  allocations: ZAllocations.min(1, 'Choose an invoice to apply the credit to'),
});
export type TCreditApply = z.output<typeof ZCreditApply>;

export const ZRefundCreate = z.object({
  clientId: z.uuid('Choose a client'),
  paidOn: ZBillingDate,
  method: zMethod,
  reference: zReference,
  amount: zPositiveAmount('Refund'),
  notes: zNotes,
});
export type TRefundCreate = z.output<typeof ZRefundCreate>;

export const ZPaymentRef = z.object({ paymentId: z.uuid('Payment not found') });

export const ZPaymentReverse = ZPaymentRef.extend({
  reason: zText({ min: 1, max: 500, label: 'Reason' }),
});

/** What may change on a recorded payment: never its money (reverse it), only its paperwork. */
export const ZPaymentUpdate = ZPaymentRef.extend({
  reference: zReference,
  notes: zNotes,
  tdsSection: ZTdsSection,
  tdsCertificateReceived: z.boolean(),
});
export type TPaymentUpdate = z.output<typeof ZPaymentUpdate>;

export const ZAllocationReverse = z.object({ allocationId: z.uuid('Allocation not found') });

const zOptionalDay = ZBillingDate.optional();

export const ZPaymentFilter = z
  .object({
    from: zOptionalDay,
    to: zOptionalDay,
    method: zMethod.optional(),
    kind: z.enum(PAYMENT_KINDS).optional(),
    clientId: z.uuid('Choose a client').optional(),
    tds: z.enum(TDS_FILTERS).optional(),
    reversed: z.enum(YES_NO).optional(),
    search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
    sort: z.enum(PAYMENT_SORTS).default('receivedOn'),
    direction: z.enum(['asc', 'desc']).default('desc'),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: 'The first day comes after the last',
    path: ['to'],
  });
export type TPaymentFilter = z.output<typeof ZPaymentFilter>;

export const ZPaymentListInput = z.intersection(
  ZPageInput.pick({ page: true, pageSize: true }),
  ZPaymentFilter,
);
export type TPaymentListInput = z.output<typeof ZPaymentListInput>;

export const ZOpenInvoicesInput = z.object({ clientId: z.uuid('Choose a client') });
export const ZClientRef = z.object({ clientId: z.uuid('Choose a client') });
export const ZClientSearch = z.object({
  search: zString().trim().max(100).optional(),
  /** Keeps the chosen client among the options whatever the search. */
  clientId: z.uuid().optional(),
});

export const ZAgingInput = ZPageInput.pick({ page: true, pageSize: true, search: true }).extend({
  by: z.enum(AGING_DIMENSIONS).default('client'),
  sort: z.enum(AGING_SORTS).default('outstanding'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type TAgingInput = z.output<typeof ZAgingInput>;

/** At most ten years on one statement: longer reads as a mistake, and stays quick to print. */
export const MAX_STATEMENT_DAYS = 3660;

export const ZStatementInput = z
  .object({ clientId: z.uuid('Choose a client'), from: ZBillingDate, to: ZBillingDate })
  .refine((s) => s.from <= s.to, { message: 'The first day comes after the last', path: ['to'] })
  .refine(
    (s) =>
      Date.parse(`${s.to}T00:00:00Z`) - Date.parse(`${s.from}T00:00:00Z`) <= MAX_STATEMENT_DAYS * 86_400_000,
    { message: 'A statement covers at most ten years', path: ['from'] },
  );
export type TStatementInput = z.output<typeof ZStatementInput>;

/** What a statement row records, as the screen names it. */
export const STATEMENT_ENTRY_KINDS = [
  'invoice',
  'credit_note',
  'payment',
  'tds',
  'bank_charges',
  'refund',
  'payment_reversed',
  'refund_reversed',
] as const;
export type TStatementEntryKind = (typeof STATEMENT_ENTRY_KINDS)[number];
export const STATEMENT_ENTRY_LABELS: Record<TStatementEntryKind, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  payment: 'Payment received',
  tds: 'TDS deducted',
  bank_charges: 'Bank charges',
  refund: 'Refund paid',
  payment_reversed: 'Payment reversed',
  refund_reversed: 'Refund reversed',
};

/** A firm's payment-reminder schedule, as billing settings hold it. */
export type TReminderSchedule = {
  remindBeforeDays: number | null;
  remindOnDue: boolean;
  remindEveryDays: number | null;
};

/** How late a missed "due" reminder may still go when no later reminders follow it. */
const DUE_GRACE_DAYS = 3;

/**
 * The reminder step an open invoice is at on `today`: 'before' in the days before its due date,
 * 'due' from the due date, then 'after:1', 'after:2'… every N days after it; null when no step is
 * due. Each step is sent once (a table's key is the guard), so a day the job did not run is made
 * up by the step it is at, never by a burst of the steps it missed.
 */
export function reminderStepOn(schedule: TReminderSchedule, dueDate: string, today: string): string | null {
  const late = daysApart(dueDate, today);
  if (late < 0) {
    return schedule.remindBeforeDays && -late <= schedule.remindBeforeDays ? 'before' : null;
  }
  const every = schedule.remindEveryDays;
  const n = every ? Math.floor(late / every) : 0;
  if (n > 0) return `after:${n}`;
  if (!schedule.remindOnDue) return null;
  return every || late <= DUE_GRACE_DAYS ? 'due' : null;
}
