import { TZDate } from '@date-fns/tz';
import type { TReminderStatus } from '@domain/reminders';
import type { BadgeTone } from '@web/ui';
import { format } from 'date-fns';

/** The value of a datetime-local input for an instant, on the firm's clock. */
export function toLocalInput(at: Date, timeZone: string): string {
  return format(new TZDate(at.getTime(), timeZone), "yyyy-MM-dd'T'HH:mm");
}

/** The instant a datetime-local value names on the firm's clock; null when blank or malformed. */
export function fromLocalInput(value: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, 0, 0, timeZone).getTime());
}

export const STATUS_TONES: Record<TReminderStatus, BadgeTone> = {
  scheduled: 'blue',
  sent: 'green',
  failed: 'red',
  cancelled: 'grey',
};
