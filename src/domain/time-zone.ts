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

/** A wall-clock time a person types: "9:00", "09:00", "9.30", "9 pm", "21:15"; minutes after midnight. */
export function parseClockTime(text: string): number | null {
  const m = /^(\d{1,2})(?:[:.](\d{2}))?\s*([ap])?\.?\s*m?\.?$/i.exec(text.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const half = m[3]?.toLowerCase();
  if (minute > 59) return null;
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  } else if (hour > 23) return null;
  return hour * 60 + minute;
}

/** "09:05" for 545 minutes after midnight: how a time field shows its value (24-hour, unambiguous). */
export function clockTimeText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The firm's calendar day and wall-clock minutes of an instant. */
export function wallClockIn(at: Date, timeZone: string): { day: string; minutes: number } {
  const z = new TZDate(at.getTime(), timeZone);
  const day = `${String(z.getFullYear()).padStart(4, '0')}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
  return { day, minutes: z.getHours() * 60 + z.getMinutes() };
}

/** The instant a calendar day and a wall-clock time name in a time zone. */
export function instantIn(day: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = parts(day);
  return new Date(new TZDate(y, m, d, Math.floor(minutes / 60), minutes % 60, 0, 0, timeZone).getTime());
}
