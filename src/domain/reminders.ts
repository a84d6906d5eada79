import { z } from 'zod';
import { zDate, zNumber, zString } from './fields';
import { ZPageInput } from './pagination';
import {
  REMINDER_SORTS,
  REMINDER_STATUSES,
  REMINDER_TYPES,
  type TReminderStatus,
  type TReminderType,
} from './reminders-constants';

export {
  isReminderType,
  REMINDER_SORTS,
  REMINDER_STATUSES,
  REMINDER_TYPES,
  type TReminderStatus,
  type TReminderType,
} from './reminders-constants';

// Reminders (/reminders/{type}): to a client, to members, or ahead of an item's expiry.

export const REMINDER_RECURRENCES = ['none', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type TRecurrence = (typeof REMINDER_RECURRENCES)[number];
export const REMINDER_CHANNELS = ['email', 'in_app'] as const;
export type TReminderChannel = (typeof REMINDER_CHANNELS)[number];

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
