import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, addWeeks, addYears, subDays } from 'date-fns';
import type { TRecurrence } from './reminders';

// When reminders go out, on the firm's clock: the server's only. Apart from reminders.ts, whose
// constants the reminders route's search reads on every first page, without date-fns.

/** The hour of the firm's day an expiry reminder goes out. */
export const EXPIRY_REMIND_HOUR = 9;

/** The k-th occurrence after the anchor, counted in the firm's time zone (09:00 stays 09:00 across DST). */
function occurrence(anchor: Date, recurrence: Exclude<TRecurrence, 'none'>, k: number, timeZone: string) {
  const local = new TZDate(anchor.getTime(), timeZone);
  const next =
    recurrence === 'daily'
      ? addDays(local, k)
      : recurrence === 'weekly'
        ? addWeeks(local, k)
        : recurrence === 'monthly'
          ? addMonths(local, k)
          : recurrence === 'quarterly'
            ? addMonths(local, 3 * k)
            : addYears(local, k);
  return new Date(next.getTime());
}

/** The longest a step can be: dividing by it never overshoots the step count. */
const LONGEST_MS: Record<Exclude<TRecurrence, 'none'>, number> = {
  daily: 25 * 3_600_000,
  weekly: 7 * 86_400_000 + 3_600_000,
  monthly: 31 * 86_400_000 + 3_600_000,
  quarterly: 92 * 86_400_000 + 3_600_000,
  yearly: 366 * 86_400_000 + 3_600_000,
};

/**
 * The first occurrence strictly after `after`, counting every step from the anchor so a reminder
 * anchored on 31 January goes out on 28 (or 29) February and again on 31 March. Null when the
 * reminder does not repeat. Missed occurrences (a server down for a week) are skipped, not sent in a burst.
 */
export function nextOccurrence(
  anchor: Date,
  recurrence: TRecurrence,
  after: Date,
  timeZone: string,
): Date | null {
  if (recurrence === 'none') return null;
  // Start at or below the answer (dividing by the longest step), then walk forward.
  let k = Math.max(0, Math.floor((after.getTime() - anchor.getTime()) / LONGEST_MS[recurrence]) - 1);
  for (;;) {
    const at = occurrence(anchor, recurrence, k, timeZone);
    if (at.getTime() > after.getTime()) return at;
    k++;
  }
}

/** When an expiry reminder goes out: `daysBefore` days before the expiry date, at 09:00 in the firm's zone. */
export function expiryRemindAt(expiryDate: string, daysBefore: number, timeZone: string): Date {
  const [y, m, d] = expiryDate.split('-').map(Number);
  const day = new TZDate(y ?? 1970, (m ?? 1) - 1, d ?? 1, EXPIRY_REMIND_HOUR, 0, 0, 0, timeZone);
  return new Date(subDays(day, daysBefore).getTime());
}
