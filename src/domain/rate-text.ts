// Typed amounts to minor units and back, without zod: the portal's request screen reads amounts
// with them on its first load (timesheet-rates.ts, with the schemas, re-exports them).

/**
 * The highest hourly rate, in minor units: 1,000,000.00 in a currency of two digits, 100,000,000 in
 * one of none (VND, IDR), more than any firm charges, and far inside a PostgreSQL integer.
 */
export const MAX_RATE = 100_000_000;
export const RATE_TOO_HIGH = 'That rate is higher than any firm charges for an hour: check the amount';
export const RATE_FORMAT = 'Type an amount like 1500 or 1500.50';

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
  // The pattern makes a whole number of at most 15 digits, never negative: ZRateValue's one other
  // bound is the highest rate (rate-text.test.ts compares the two).
  return rate > MAX_RATE ? { error: RATE_TOO_HIGH } : { rate };
}

/** Minor units back as the plain amount a person edits ("1500.50"): no grouping, no symbol. */
export function rateText(rate: number | null, digits: number): string {
  if (rate === null) return '';
  if (!digits) return String(rate);
  const major = Math.floor(rate / 10 ** digits);
  const minor = String(rate % 10 ** digits).padStart(digits, '0');
  return `${major}.${minor}`;
}
