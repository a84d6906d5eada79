// The reminders list's vocabulary, without zod: route files read their URL with it on the first page
// (reminders.ts, with the schemas, re-exports it).

export const REMINDER_TYPES = ['client', 'team', 'expiry'] as const;
export type TReminderType = (typeof REMINDER_TYPES)[number];

export const REMINDER_STATUSES = ['scheduled', 'sent', 'failed', 'cancelled'] as const;
export type TReminderStatus = (typeof REMINDER_STATUSES)[number];

export const isReminderType = (value: string): value is TReminderType =>
  (REMINDER_TYPES as readonly string[]).includes(value);

export const REMINDER_SORTS = ['remindAt', 'createdAt', 'title'] as const;
