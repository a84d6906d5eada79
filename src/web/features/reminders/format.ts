import type { TReminderStatus } from '@domain/reminders';
import type { BadgeTone } from '@web/ui';

export const STATUS_TONES: Record<TReminderStatus, BadgeTone> = {
  scheduled: 'blue',
  sent: 'green',
  failed: 'red',
  cancelled: 'grey',
};
