import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, addWeeks, addYears, subDays } from 'date-fns';
import { z } from 'zod';
import { zDate, zNumber, zString } from './fields';
import { ZPageInput } from './pagination';

// Reminders (/reminders/{type}): to a client, to members, or ahead of an item's expiry.

export const REMINDER_TYPES = ['client', 'team', 'expiry'] as const;
export type TReminderType = (typeof REMINDER_TYPES)[number];
export const REMINDER_STATUSES = ['scheduled', 'sent', 'failed', 'cancelled'] as const;
export type TReminderStatus = (typeof REMINDER_STATUSES)[number];
export const REMINDER_RECURRENCES = ['none', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type TRecurrence = (typeof REMINDER_RECURRENCES)[number];
export const REMINDER_CHANNELS = ['email', 'in_app'] as const;
export type TReminderChannel = (typeof REMINDER_CHANNELS)[number];

export const isReminderType = (value: string): value is TReminderType =>
  (REMINDER_TYPES as readonly string[]).includes(value);

export const REMINDER_TYPE_LABELS: Record<TReminderType, { label: string; description: string }> = {
  client: { label: 'Client', description: 'By email to the client: documents pending, payments due' },
  team: { label: 'Team', description: 'To members of the firm, in the app and by email' },
  expiry: {
    label: 'Expiry',
    description: 'Certificates, registrations and licences: to the client and the responsible members',
  },
};
export const REMINDER_STATUS_LABELS: Record<TReminderStatus, string> = {
  scheduled: 'Scheduled',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
export const RECURRENCE_LABELS: Record<TRecurrence, string> = {
  none: 'Does not repeat',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};
export const CHANNEL_LABELS: Record<TReminderChannel, string> = { email: 'Email', in_app: 'In the app' };

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

const ZDay = zString()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'Enter a real date');

const optionalId = z
  .uuid('Choose a valid record')
  .nullish()
  .transform((v) => v ?? null);

/** How far in the past a send time may be (a form left open a while); older is a mistake. */
export const PAST_GRACE_MS = 24 * 60 * 60_000;

export const ZReminderInput = z
  .object({
    type: z.enum(REMINDER_TYPES),
    title: zString().trim().min(1, 'Enter a title').max(200, 'Title must be at most 200 characters'),
    message: zString().trim().max(5000, 'Message must be at most 5,000 characters').default(''),
    clientId: optionalId,
    projectId: optionalId,
    taskId: optionalId,
    /** Client and team reminders; an expiry reminder's send time is derived from its expiry. */
    remindAt: zDate('Choose when to send it')
      .nullish()
      .transform((v) => v ?? null),
    recurrence: z.enum(REMINDER_RECURRENCES).default('none'),
    channels: z
      .array(z.enum(REMINDER_CHANNELS))
      .min(1, 'Choose at least one channel')
      .transform((v) => [...new Set(v)]),
    memberIds: z
      .array(z.uuid())
      .max(100, 'Choose at most 100 members')
      .default([])
      .transform((v) => [...new Set(v)]),
    itemName: zString()
      .trim()
      .max(200, 'Item must be at most 200 characters')
      .nullish()
      .transform((v) => v || null),
    expiryDate: ZDay.nullish().transform((v) => v ?? null),
    daysBefore: zNumber('Enter the number of days before')
      .int('Enter whole days')
      .min(0, 'Days before cannot be negative')
      .max(3650, 'Days before must be at most 3,650')
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.type !== 'team' && !v.clientId) issue('clientId', 'Choose the client');
    if (v.type === 'team' && v.memberIds.length === 0) issue('memberIds', 'Choose at least one member');
    if (v.type === 'client' && !v.channels.includes('email')) {
      issue('channels', 'A client reminder goes by email');
    }
    if (v.taskId && !v.clientId && v.type !== 'team') issue('taskId', 'Choose the client first');
    if (v.type === 'expiry') {
      if (!v.itemName) issue('itemName', 'Enter what expires (a certificate, a licence…)');
      if (!v.expiryDate) issue('expiryDate', 'Enter the expiry date');
      if (v.daysBefore === null) issue('daysBefore', 'Enter how many days before to remind');
    } else if (!v.remindAt) {
      issue('remindAt', 'Choose when to send it');
    } else if (v.remindAt.getTime() < Date.now() - PAST_GRACE_MS) {
      issue('remindAt', 'That time has passed: choose a time from now on');
    }
  });
export type TReminderInput = z.infer<typeof ZReminderInput>;
export type TReminderFormValues = z.input<typeof ZReminderInput>;

export const ZReminderRef = z.object({ id: z.uuid('Reminder not found') });
export const ZReminderUpdate = z.object({ id: z.uuid('Reminder not found'), data: ZReminderInput });

export const REMINDER_SORTS = ['remindAt', 'createdAt', 'title'] as const;

export const ZReminderListInput = ZPageInput.extend({
  type: z.enum(REMINDER_TYPES),
  status: z.enum(REMINDER_STATUSES).optional(),
  clientId: z.uuid().optional(),
  sort: z.enum(REMINDER_SORTS).default('remindAt'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type TReminderListQuery = z.infer<typeof ZReminderListInput>;

export const ZReminderDeliveriesInput = ZPageInput.pick({ page: true, pageSize: true }).extend({
  id: z.uuid('Reminder not found'),
});

export const ZReminderPickerInput = z.object({
  search: zString().trim().max(100).optional(),
  clientId: z.uuid().optional(),
});
