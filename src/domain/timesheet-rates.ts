import { z } from 'zod';
import { zInt, zText } from './fields';
import { ZPageInput } from './pagination';

// Hourly rates are whole numbers in the currency's minor unit (paise, cents; yen have none), so
// money never passes through a float on its way to the database. A person types major units
// ("1500.50"); parseRate turns that into minor units with the currency's own number of digits.

/**
 * A member's cost (`cost`, what an hour of theirs costs the firm) and billing rates by member,
 * client, service or task. The most specific billing rate wins: task → service → client → member.
 */
export const RATE_KINDS = ['cost', 'member', 'client', 'service', 'task'] as const;
export type TRateKind = (typeof RATE_KINDS)[number];

export const RATE_KIND_LABELS: Record<TRateKind, string> = {
  cost: 'Cost rate',
  member: 'Billing rate',
  client: 'Billing rate',
  service: 'Billing rate',
  task: 'Billing rate',
};

/**
 * The highest hourly rate, in minor units: 1,000,000.00 in a currency of two digits, 100,000,000 in
 * one of none (VND, IDR), more than any firm charges, and far inside a PostgreSQL integer.
 */
export const MAX_RATE = 100_000_000;
export const RATE_TOO_HIGH = 'That rate is higher than any firm charges for an hour: check the amount';
export const RATE_FORMAT = 'Type an amount like 1500 or 1500.50';

/** A rate in minor units; null clears it. */
export const ZRateValue = zInt({ error: 'Give the rate as a whole number of the smallest unit' })
  .min(0, 'A rate cannot be negative')
  .max(MAX_RATE, RATE_TOO_HIGH);

export const ZRateSet = z.object({
  kind: z.enum(RATE_KINDS, { error: 'Choose which rate to set' }),
  refId: z.uuid('This link is not valid'),
  rate: ZRateValue.nullable(),
});
export type TRateSet = z.output<typeof ZRateSet>;

/** The lists of the rates screen: members, clients or services, a page at a time. */
export const ZRateListInput = ZPageInput.pick({ page: true, pageSize: true }).extend({
  search: zText({ max: 100, label: 'Search' }).optional(),
});

export const ZTaskRateInput = z.object({ taskId: z.uuid('This task link is not valid') });

/**
 * Minor units from what a person typed in major units: "1500", "1500.5", "1500,50", " 1500.50 ".
 * Blank is null (no rate); a string that is not an amount, or has more decimals than the currency
 * has, is an error message.
 */
export function parseRate(text: string, digits: number): { rate: number | null } | { error: string } {
  const value = text.trim();
  if (value === '') return { rate: null };
  const m = /^(\d{1,12})(?:[.,](\d*))?$/.exec(value);
  if (!m) return { error: RATE_FORMAT };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits)
    return { error: digits ? `Use at most ${digits} decimal places` : 'This currency has no decimals' };
  const rate = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  const checked = ZRateValue.safeParse(rate);
  return checked.success ? { rate } : { error: checked.error.issues[0]?.message ?? RATE_TOO_HIGH };
}

/** Minor units back as the plain amount a person edits ("1500.50"): no grouping, no symbol. */
export function rateText(rate: number | null, digits: number): string {
  if (rate === null) return '';
  if (!digits) return String(rate);
  const major = Math.floor(rate / 10 ** digits);
  const minor = String(rate % 10 ** digits).padStart(digits, '0');
  return `${major}.${minor}`;
}

/** What an entry earns or costs at an hourly rate: minutes × rate / 60, in minor units. */
export const amountOf = (minutes: number, rate: number) => Math.round((minutes * rate) / 60);
