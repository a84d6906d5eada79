import { TZDate } from '@date-fns/tz';
import { addMonths, endOfMonth, format, getDaysInMonth, setDate, startOfMonth } from 'date-fns';
import { addDays } from './days';
import type { TDueDateRule, TServiceFrequency } from './services';

// Periods of recurring work and their due dates. Every value is a calendar day 'YYYY-MM-DD'; the
// arithmetic runs on UTC dates so no local time zone or daylight-saving change can shift a day.
//
// Period keys (stored in projects.period_key, unique per engagement):
// - monthly:      '2026-03'    the calendar month.
// - quarterly:    '2026-Q1'    fiscal quarters counted from the fiscal-year start month; the year is
//                              the calendar year the fiscal year STARTS in. With an April start,
//                              '2026-Q1' is Apr-Jun 2026 and '2026-Q4' is Jan-Mar 2027.
// - half_yearly:  '2026-H1'    fiscal halves, the year as for quarters.
// - yearly:       '2026'       when the fiscal year starts in January, else 'FY2026-27'.
// - one_time:     'once'       one project per engagement, its period the engagement's start day.

export type TPeriod = { key: string; label: string; start: string; end: string };
export type TRecurringFrequency = Exclude<TServiceFrequency, 'one_time'>;

export const ONE_TIME_PERIOD_KEY = 'once';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function toDate(day: string): TZDate {
  const [y, m, d] = day.split('-').map(Number);
  return new TZDate(y ?? 1970, (m ?? 1) - 1, d ?? 1, 'UTC');
}

const iso = (date: Date) => format(date, 'yyyy-MM-dd');

function checkMonth(fiscalYearStartMonth: number) {
  if (!Number.isInteger(fiscalYearStartMonth) || fiscalYearStartMonth < 1 || fiscalYearStartMonth > 12) {
    throw new RangeError(`fiscal-year start month must be 1 to 12, not ${fiscalYearStartMonth}`);
  }
}

/**
 * The frequency a period key was made for (the formats above), or null for a key typed by hand that
 * is none of them: automations' period condition reads it.
 */
export function periodKeyFrequency(key: string | null | undefined): TServiceFrequency | null {
  if (!key) return null;
  if (key === ONE_TIME_PERIOD_KEY) return 'one_time';
  if (/^\d{4}-(0[1-9]|1[0-2])$/.test(key)) return 'monthly';
  if (/^\d{4}-Q[1-4]$/.test(key)) return 'quarterly';
  if (/^\d{4}-H[12]$/.test(key)) return 'half_yearly';
  if (/^(\d{4}|FY\d{4}-\d{2})$/.test(key)) return 'yearly';
  return null;
}

/** 'FY2026-27' for a fiscal year starting in 2026 (not January), '2026' for a calendar year. */
export function fiscalYearKey(startYear: number, fiscalYearStartMonth: number): string {
  if (fiscalYearStartMonth === 1) return String(startYear);
  return `FY${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

/** The period of `frequency` that contains `day`, for a firm whose fiscal year starts in that month (1-12). */
export function periodContaining(
  frequency: TRecurringFrequency,
  fiscalYearStartMonth: number,
  day: string,
): TPeriod {
  checkMonth(fiscalYearStartMonth);
  const date = toDate(day);
  if (frequency === 'monthly') {
    const start = startOfMonth(date);
    return {
      key: format(start, 'yyyy-MM'),
      label: `${MONTHS[start.getMonth()]} ${start.getFullYear()}`,
      start: iso(start),
      end: iso(endOfMonth(start)),
    };
  }
  const fyStartIndex = fiscalYearStartMonth - 1;
  const fyYear = date.getMonth() >= fyStartIndex ? date.getFullYear() : date.getFullYear() - 1;
  const fyStart = new TZDate(fyYear, fyStartIndex, 1, 'UTC');
  const fyKey = fiscalYearKey(fyYear, fiscalYearStartMonth);
  const monthsIn = (date.getMonth() - fyStartIndex + 12) % 12;
  const size = frequency === 'quarterly' ? 3 : frequency === 'half_yearly' ? 6 : 12;
  const index = Math.floor(monthsIn / size);
  const start = addMonths(fyStart, index * size);
  const end = endOfMonth(addMonths(start, size - 1));
  const part =
    frequency === 'quarterly' ? `Q${index + 1}` : frequency === 'half_yearly' ? `H${index + 1}` : '';
  const key = part ? `${fyYear}-${part}` : fyKey;
  const label = part ? (fiscalYearStartMonth === 1 ? `${part} ${fyYear}` : `${part} ${fyKey}`) : fyKey;
  return { key, label, start: iso(start), end: iso(end) };
}

/** The period right after `period`. */
export function nextPeriod(
  frequency: TRecurringFrequency,
  fiscalYearStartMonth: number,
  period: TPeriod,
): TPeriod {
  return periodContaining(frequency, fiscalYearStartMonth, addDays(period.end, 1));
}

/** Every period that ends on or after `from` and starts on or before `through`, in order. */
export function periodsBetween(
  frequency: TRecurringFrequency,
  fiscalYearStartMonth: number,
  from: string,
  through: string,
): TPeriod[] {
  const out: TPeriod[] = [];
  for (
    let p = periodContaining(frequency, fiscalYearStartMonth, from);
    p.start <= through;
    p = nextPeriod(frequency, fiscalYearStartMonth, p)
  ) {
    out.push(p);
  }
  return out;
}

/**
 * The due date of a period's work: the rule's day of the month that falls `monthsAfterPeriod` after
 * the period's last month, clamped to that month's end (31 → 28 or 29 Feb). No rule: the period's end.
 */
export function dueDateFor(periodEnd: string, rule: TDueDateRule | null | undefined): string {
  if (!rule) return periodEnd;
  const month = addMonths(startOfMonth(toDate(periodEnd)), rule.monthsAfterPeriod);
  return iso(setDate(month, Math.min(rule.dayOfMonth, getDaysInMonth(month))));
}

/** A one-time engagement's single period: its start day. */
export function oneTimePeriod(startDate: string): TPeriod {
  return { key: ONE_TIME_PERIOD_KEY, label: '', start: startDate, end: startDate };
}

/** "GST return · Mar 2026": the name a generated project gets. */
export function projectNameFor(serviceName: string, period: TPeriod): string {
  return period.label ? `${serviceName} · ${period.label}` : serviceName;
}

/**
 * The periods to generate work for: from the earliest one whose due date is still today or later
 * (past work the firm did before it used the app is not recreated) through the last that starts on
 * or before `through`. The rule may be a function of the period's end (a statutory filing's).
 */
export function periodsToGenerate(
  frequency: TRecurringFrequency,
  fiscalYearStartMonth: number,
  rule: TDueDateRule | null | undefined | ((periodEnd: string) => string),
  today: string,
  through: string,
): TPeriod[] {
  const due = typeof rule === 'function' ? rule : (end: string) => dueDateFor(end, rule);
  let first = periodContaining(frequency, fiscalYearStartMonth, today);
  // A due date lies at most 12 months after its period: a bounded walk back.
  for (let i = 0; i < 40; i++) {
    const prev = periodContaining(frequency, fiscalYearStartMonth, addDays(first.start, -1));
    if (due(prev.end) < today) break;
    first = prev;
  }
  return periodsBetween(frequency, fiscalYearStartMonth, first.start, through);
}
