import { z } from 'zod';
import { zText } from '../fields';
import { ZPageInput } from '../pagination';
import { DISBURSEMENT_KINDS, MAX_AMOUNT, MAX_LINES } from './constants';
import { AMOUNT_TOO_HIGH, ZBillingDate, zPositiveAmount } from './schemas';

// Work in progress (issue 35): what a client owes the firm that is not on an invoice yet, the
// disbursements paid on its behalf, and the choice of what goes on a draft.

export const WIP_SORTS = ['value', 'client', 'time', 'fees', 'disbursements'] as const;
export type TWipSort = (typeof WIP_SORTS)[number];

export const ZWipListInput = ZPageInput.extend({
  sort: z.enum(WIP_SORTS).default('value'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type TWipListInput = z.input<typeof ZWipListInput>;
export type TWipListQuery = z.output<typeof ZWipListInput>;

export const ZWipClientInput = z.object({ clientId: z.uuid('Choose a client') });

/** How time goes on an invoice: a line per service, per project, or per entry. */
export const TIME_GROUPINGS = ['service', 'project', 'entry'] as const;
export type TTimeGrouping = (typeof TIME_GROUPINGS)[number];
export const TIME_GROUPING_LABELS: Record<TTimeGrouping, string> = {
  service: 'A line per service',
  project: 'A line per project',
  entry: 'A line per entry',
};

/** The most items one invoice bills: far more than a person selects, few enough for one statement. */
export const MAX_WIP_ITEMS = 5000;

const ids = (what: string) =>
  z
    .array(z.uuid(`Choose ${what} from work in progress`))
    .max(MAX_WIP_ITEMS, `Bill at most ${MAX_WIP_ITEMS} items at once`)
    .default([]);

export const ZFeePeriodRef = z.object({
  engagementId: z.uuid('Choose a fee from work in progress'),
  periodStart: ZBillingDate,
});
export type TFeePeriodRef = z.output<typeof ZFeePeriodRef>;

const ZSelection = z.object({
  timeEntryIds: ids('time'),
  fees: z.array(ZFeePeriodRef).max(MAX_LINES, `Bill at most ${MAX_LINES} fees at once`).default([]),
  disbursementIds: ids('disbursements'),
  groupTimeBy: z.enum(TIME_GROUPINGS, { error: 'Choose how time is grouped' }).default('service'),
});

const somethingChosen = (s: z.output<typeof ZSelection>) =>
  s.timeEntryIds.length + s.fees.length + s.disbursementIds.length > 0;
const NOTHING_CHOSEN = { message: 'Choose something to bill' };

export const ZWipCreateInvoice = ZSelection.extend({ clientId: z.uuid('Choose a client') }).refine(
  somethingChosen,
  NOTHING_CHOSEN,
);
export type TWipCreateInvoice = z.output<typeof ZWipCreateInvoice>;

export const ZWipAddToDraft = ZSelection.extend({ invoiceId: z.uuid('Choose a draft invoice') }).refine(
  somethingChosen,
  NOTHING_CHOSEN,
);
export type TWipAddToDraft = z.output<typeof ZWipAddToDraft>;

export const ZDisbursementFields = z.object({
  spentOn: ZBillingDate,
  kind: z.enum(DISBURSEMENT_KINDS, { error: 'Choose what was paid' }),
  description: zText({ min: 1, max: 300, label: 'Description' }),
  amount: zPositiveAmount('Amount'),
  projectId: z
    .uuid('Choose a project from the list')
    .nullish()
    .transform((v) => v ?? null),
  receiptDocumentId: z
    .uuid('Upload the receipt again')
    .nullish()
    .transform((v) => v ?? null),
});
export const ZDisbursementCreate = ZDisbursementFields.extend({ clientId: z.uuid('Choose a client') });
export type TDisbursementCreate = z.output<typeof ZDisbursementCreate>;
export const ZDisbursementUpdate = ZDisbursementFields.extend({
  disbursementId: z.uuid('Choose a disbursement'),
});
export type TDisbursementUpdate = z.output<typeof ZDisbursementUpdate>;
export const ZDisbursementRef = z.object({ disbursementId: z.uuid('Choose a disbursement') });

/** What the disbursement form edits: the amount as typed ("1500.50"), turned into minor units on save. */
export const ZDisbursementForm = ZDisbursementFields.omit({ amount: true }).extend({
  amountText: zText({ min: 1, max: 30, label: 'Amount' }),
});
export type TDisbursementFormInput = z.input<typeof ZDisbursementForm>;
export type TDisbursementFormValues = z.output<typeof ZDisbursementForm>;

/**
 * Minor units from an amount a person typed in major units ("1500", "1,500.50" is refused: no
 * grouping; "1500,50" is a decimal comma), exactly, without a float: up to MAX_AMOUNT. Unlike
 * parseRate (hourly rates) the ceiling is an invoice's, so a large fee or stamp duty fits.
 */
export function parseAmount(text: string, digits: number): { amount: number } | { error: string } {
  const value = text.trim();
  const m = /^(\d{1,14})(?:[.,](\d*))?$/.exec(value);
  if (!m) return { error: 'Type an amount like 1500 or 1500.50' };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits)
    return { error: digits ? `Use at most ${digits} decimal places` : 'This currency has no decimals' };
  const amount = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(amount) || amount > MAX_AMOUNT) return { error: AMOUNT_TOO_HIGH };
  return { amount };
}

/**
 * An engagement's fee (numeric(12,2) as PostgreSQL writes it, "2500.00") in minor units, exactly. A
 * currency with fewer digits than the two stored (yen) rounds half up: the fee was typed in it.
 */
export function feeMinor(fee: string | null, digits: number): number | null {
  if (fee === null) return null;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(fee.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const fraction = m[2] ?? '';
  const kept = fraction.slice(0, digits).padEnd(digits, '0');
  const roundUp = fraction.length > digits && Number(fraction[digits]) >= 5 ? 1 : 0;
  return whole * 10 ** digits + Number(kept || '0') + roundUp;
}

/** Hours in thousandths from minutes (2 h 30 min is 2500), as invoice lines count them. */
export const minutesToMilli = (minutes: number) => Math.round((minutes * 1000) / 60);

/** Percent text ("18", "12.5") and basis points (1800, 1250), both ways, without a float. */
export function percentToBp(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}
export function bpToPercent(bp: number | null): string {
  if (bp === null) return '';
  const whole = Math.floor(bp / 100);
  const rest = bp % 100;
  return rest ? `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}` : String(whole);
}

export const ZPercentText = zText({ max: 6, label: 'Tax rate' })
  .refine((v) => v === '' || percentToBp(v) !== null, 'Give the rate as a percent from 0 to 100, like 18')
  .nullish()
  .transform((v) => (v ? String(v) : null));
