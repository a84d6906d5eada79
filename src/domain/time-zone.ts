import { TZDate } from '@date-fns/tz';

function parts(day: string): [number, number, number] {
  const [y, m, d] = day.split('-').map(Number);
  return [y ?? 1970, (m ?? 1) - 1, d ?? 1];
}

/** The instant a calendar day ('YYYY-MM-DD') starts in a time zone. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = parts(day);
  return new Date(new TZDate(y, m, d, 0, 0, 0, 0, timeZone).getTime());
}

/** The last millisecond of a calendar day in a time zone (the next day's start, less one). */
export function endOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = parts(day);
  return new Date(new TZDate(y, m, d + 1, 0, 0, 0, 0, timeZone).getTime() - 1);
}
