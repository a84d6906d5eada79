// Calendar days, 'YYYY-MM-DD': the one home of their arithmetic, for the server and the web alike.
// A day is a UTC midnight while it is counted, so no time zone or daylight-saving change can shift
// it. Plain arithmetic, neither date-fns nor @date-fns/tz: route search schemas import these (they
// are in every first page), and the team's week and availability run them thousands of times a request.
// Months, fiscal periods and recurrences stay with their rules (periods.ts, reminder-schedule.ts).

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

const utcMidnight = (day: string) => Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
const dayOfTime = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Whether a value is a calendar day that exists ('2026-02-30' is not). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const time = utcMidnight(value);
  return !Number.isNaN(time) && dayOfTime(time) === value;
}

/** A calendar day plus (or minus) some days. */
export function addDays(day: string, days: number): string {
  return dayOfTime(utcMidnight(day) + days * MS_PER_DAY);
}

/** How many days `to` is after `from` (negative when before). */
export function daysApart(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / MS_PER_DAY);
}

/** Every calendar day from `from` to `to`, both included (at most ten years of them). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = utcMidnight(from); ; t += MS_PER_DAY) {
    const day = dayOfTime(t);
    if (day > to) break;
    out.push(day);
    if (out.length > 3700) break;
  }
  return out;
}

/** ISO weekday, 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  return new Date(utcMidnight(day)).getUTCDay() || 7;
}

/** The Monday of the week a day falls in (weeks run Monday to Sunday). */
export function weekStartOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

/** The seven days of the week starting on a Monday. */
export function weekDays(weekStart: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
}

const pad = (n: number) => String(n).padStart(2, '0');

// One calendar reader a zone: building an Intl formatter costs far more than asking one. It reads
// the day's numbers out of parts and formats nothing (format.ts keeps the display rules).
const readers = new Map<string, Intl.DateTimeFormat>();
function calendarOf(timeZone: string): Intl.DateTimeFormat {
  let reader = readers.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    readers.set(timeZone, reader);
  }
  return reader;
}

/**
 * The calendar day an instant falls on in a time zone: the firm's "today" (orgs.timeZone), whatever
 * the server's clock or the viewer's browser says. A zone the runtime does not know counts as UTC.
 */
export function todayIn(timeZone: string, at: Date = new Date()): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = calendarOf(timeZone).formatToParts(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
  const part = (type: 'year' | 'month' | 'day') => Number(parts.find((p) => p.type === type)?.value);
  return `${String(part('year')).padStart(4, '0')}-${pad(part('month'))}-${pad(part('day'))}`;
}
