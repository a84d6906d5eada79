import { z } from 'zod';
import { DEFAULT_LEDGERS, ZLedgerNames } from '../accounting-export';
import { isIsoDate } from '../days';
import { zInt, zSafeInt, zString, zText } from '../fields';
import {
  LINE_KINDS,
  MAX_AMOUNT,
  MAX_LINES,
  MAX_QUANTITY_MILLI,
  MAX_TAX_RATE_BP,
  RECURRING_MODES,
  TAX_REGIMES,
} from './constants';
import { divRound } from './totals';
import { ZUpiVpaOptional } from './upi';

// Billing inputs shared by the forms and the procedures. Amounts are integer minor units; the
// forms turn what a person types into them (parseRate in domain/timesheet-rates) before validation.

export const AMOUNT_TOO_HIGH = 'That amount is larger than any invoice holds: check it';

export const zAmount = (label = 'Amount') =>
  zSafeInt({ error: `${label}: give a whole number of the smallest unit` })
    .min(0, `${label} cannot be negative`)
    .max(MAX_AMOUNT, AMOUNT_TOO_HIGH);

export const zPositiveAmount = (label = 'Amount') => zAmount(label).min(1, `${label} must be more than zero`);

export const ZBillingDate = zString()
  .trim()
  .refine(isIsoDate, 'Enter a date as YYYY-MM-DD')
  .refine((d) => d >= '2000-01-01' && d <= '2100-12-31', 'Choose a date between 2000 and 2100');

export const ZTaxRateBp = zInt({ error: 'Give the tax rate in basis points (1800 is 18%)' })
  .min(0, 'A tax rate cannot be negative')
  .max(MAX_TAX_RATE_BP, 'A tax rate cannot be over 100%');

export const ZTaxCode = zText({ max: 20, label: 'Tax code' })
  .regex(/^[0-9A-Za-z.\- ]*$/, 'A tax code (SAC or HSN) has letters and digits only')
  .default('');

/** A line as a person edits it on a draft. */
export const ZLineFields = z.object({
  /** An existing line keeps what it bills (its time, fee period, disbursement). */
  id: z.uuid('This line is not valid').optional(),
  description: zText({ min: 1, max: 500, label: 'Description' }),
  serviceId: z
    .uuid('Choose a service from the list')
    .nullish()
    .transform((v) => v ?? null),
  taxCode: ZTaxCode,
  quantityMilli: zInt({ error: 'Give the quantity as a number' })
    .min(1, 'The quantity must be more than zero')
    .max(MAX_QUANTITY_MILLI, 'The quantity is larger than any invoice holds'),
  rate: zAmount('Rate'),
  discount: zAmount('Discount').default(0),
  taxRateBp: ZTaxRateBp.default(0),
});

export const ZLineInput = ZLineFields.refine(
  (l) => l.discount <= divRound(BigInt(l.quantityMilli) * BigInt(l.rate), 1000n),
  { message: 'The discount cannot be more than the line', path: ['discount'] },
).refine((l) => divRound(BigInt(l.quantityMilli) * BigInt(l.rate), 1000n) <= MAX_AMOUNT, {
  message: AMOUNT_TOO_HIGH,
  path: ['rate'],
});
export type TLineFormInput = z.input<typeof ZLineInput>;
export type TLineValues = z.output<typeof ZLineInput>;

const ZLines = z.array(ZLineInput).max(MAX_LINES, `An invoice holds at most ${MAX_LINES} lines`);

const ZPlaceOfSupply = zString()
  .trim()
  .regex(/^(\d{2})?$/, 'The place of supply is a two-digit GST state code')
  .nullish()
  .transform((v) => v || null);

export const ZInvoiceCreate = z.object({
  clientId: z.uuid('Choose a client'),
  lines: ZLines.default([]),
  notes: zText({ max: 2000, label: 'Notes' }).default(''),
});

export const ZInvoiceUpdate = z.object({
  invoiceId: z.uuid('Choose an invoice'),
  lines: ZLines,
  dueDate: ZBillingDate.nullish().transform((v) => v ?? null),
  placeOfSupply: ZPlaceOfSupply,
  zeroRated: z.boolean().default(false),
  notes: zText({ max: 2000, label: 'Notes' }).default(''),
  terms: zText({ max: 4000, label: 'Terms' }).default(''),
});
export type TInvoiceUpdate = z.output<typeof ZInvoiceUpdate>;

export const ZInvoiceRef = z.object({ invoiceId: z.uuid('Choose an invoice') });
export const ZInvoiceIssue = ZInvoiceRef.extend({
  issueDate: ZBillingDate.optional(),
});
export const ZInvoiceVoid = ZInvoiceRef.extend({
  reason: zText({ min: 1, max: 500, label: 'Reason' }),
});
export const ZCreditNoteCreate = ZInvoiceRef.extend({
  reason: zText({ min: 1, max: 500, label: 'Reason' }),
  lines: ZLines.min(1, 'A credit note needs at least one line'),
});

export const ZLineKind = z.enum(LINE_KINDS);

export const ZBillingSettings = z
  .object({
    taxRegime: z.enum(TAX_REGIMES, { error: 'Choose how invoices are taxed' }),
    gstState: ZPlaceOfSupply,
    defaultTaxRateBp: ZTaxRateBp,
    roundTotals: z.boolean(),
    invoicePrefix: zText({ min: 1, max: 12, label: 'Invoice prefix' }).regex(
      /^[A-Za-z0-9-]+$/,
      'A prefix has letters, digits and dashes only',
    ),
    creditNotePrefix: zText({ min: 1, max: 12, label: 'Credit note prefix' }).regex(
      /^[A-Za-z0-9-]+$/,
      'A prefix has letters, digits and dashes only',
    ),
    seqDigits: zInt().min(1, 'At least one digit').max(8, 'At most 8 digits'),
    dueDays: zInt().min(0, 'Due days cannot be negative').max(365, 'At most 365 days'),
    terms: zText({ max: 4000, label: 'Terms' }),
    bankDetails: zText({ max: 1000, label: 'Bank details' }),
    upiVpa: ZUpiVpaOptional,
    upiPayee: zText({ max: 100, label: 'Payee name' })
      .nullish()
      .transform((v) => v || null),
    recurringMode: z.enum(RECURRING_MODES),
    remindersEnabled: z.boolean(),
    remindBeforeDays: zInt()
      .min(1)
      .max(60)
      .nullish()
      .transform((v) => v ?? null),
    remindOnDue: z.boolean(),
    remindEveryDays: zInt()
      .min(1)
      .max(90)
      .nullish()
      .transform((v) => v ?? null),
    /** The accounting export's ledgers; a caller that leaves them out keeps the defaults. */
    ledgers: ZLedgerNames.default(DEFAULT_LEDGERS),
  })
  .refine((s) => s.taxRegime !== 'gst' || !!s.gstState, {
    message: "GST needs the firm's state code (the first two digits of its GSTIN)",
    path: ['gstState'],
  });
export type TBillingSettingsInput = z.input<typeof ZBillingSettings>;
export type TBillingSettings = z.output<typeof ZBillingSettings>;
