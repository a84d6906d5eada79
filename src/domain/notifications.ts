import { z } from 'zod';
import { zString } from './fields';
import { ZPageInput } from './pagination';

export { NOTIFICATIONS_PAGE_SIZE } from './notifications-constants';

/** What a notification is about; features call the notification service with one of these. */
export const NOTIFICATION_KINDS = [
  'task.assigned',
  'task.mentioned',
  'task.review',
  'task.client_update',
  'leave.decided',
  'leave.requested',
  'leave.run_failed',
  'reminder.due',
  'document.uploaded',
  'request.submitted',
  'request.attention',
  'member.joined',
  'timesheet.reminder',
  'timesheet.decided',
  'timesheet.timer',
  'budget.threshold',
  'backup.failed',
  'firm.export',
  'proposal.answered',
  'message.received',
  'message.mentioned',
  'message.assigned',
  'project.stage',
  'automation.notice',
  'automation.failed',
  'webhook.paused',
] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<TNotificationKind, { label: string; description: string }> = {
  'webhook.paused': {
    label: 'Webhook paused',
    description: 'A webhook subscription you made kept failing and was paused',
  },
  'task.assigned': { label: 'Task assigned', description: 'A task is assigned to you' },
  'project.stage': { label: 'Project stage', description: 'A project you own moves to another stage' },
  'automation.notice': { label: 'Automation notice', description: 'A firm rule asks to tell you something' },
  'automation.failed': {
    label: 'Automation failed',
    description: 'A rule you own could not do its actions after its retries',
  },
  'task.mentioned': { label: 'Mentioned', description: 'Someone mentions you in a task comment' },
  'task.review': { label: 'Task to review', description: 'A task you review is ready for review' },
  'task.client_update': {
    label: 'Client task update',
    description: 'A client completes or comments on a task of yours in the portal',
  },
  'leave.decided': { label: 'Leave decided', description: 'Your leave request is approved or declined' },
  'leave.requested': { label: 'Leave requested', description: 'A leave request waits for your decision' },
  'leave.run_failed': {
    label: 'Leave run failed',
    description: 'A leave accrual or year-end run fails (for those who manage leave)',
  },
  'reminder.due': { label: 'Reminder due', description: 'A reminder you are part of falls due' },
  'document.uploaded': { label: 'Document uploaded', description: 'A client uploads a document' },
  'request.submitted': {
    label: 'Request submitted',
    description: 'A client submits the answers and files a request asked for',
  },
  'request.attention': {
    label: 'Request needs attention',
    description: 'A request you sent goes unanswered after the firm’s number of reminders',
  },
  'proposal.answered': {
    label: 'Proposal answered',
    description: 'A proposal you sent is signed by everyone, or declined',
  },
  'member.joined': { label: 'Member joined', description: 'Someone accepts an invitation to the firm' },
  'timesheet.reminder': {
    label: 'Timesheet reminder',
    description: 'An approver reminds you to submit your week',
  },
  'timesheet.decided': {
    label: 'Timesheet decided',
    description: 'Your week is approved or sent back',
  },
  'timesheet.timer': {
    label: 'Timer still running',
    description: 'Your timer is still running at the end of the day, or stopped itself',
  },
  'budget.threshold': {
    label: 'Budget used',
    description: 'Logged time on a project or task of yours reaches 80% or 100% of its hours budget',
  },
  'backup.failed': {
    label: 'Backup failed',
    description: "The instance's scheduled backup fails (for the firm's owner)",
  },
  'firm.export': {
    label: 'Firm export',
    description: 'The export of all the firm’s data you started is ready to download, or failed',
  },
  'message.received': {
    label: 'Client message',
    description:
      'A message in a conversation you are on or assigned to (a client’s, to its team, when nobody is assigned)',
  },
  'message.mentioned': {
    label: 'Mentioned in a conversation',
    description: 'Someone mentions you in a client conversation or its internal notes',
  },
  'message.assigned': {
    label: 'Conversation assigned',
    description: 'A client conversation is assigned to you',
  },
};

export function notificationKindLabel(kind: string): string {
  return (NOTIFICATION_KIND_LABELS as Record<string, { label: string }>)[kind]?.label ?? kind;
}

/** A path inside the app (/tasks?open=…): a notification never links out of it. */
export const ZAppLink = zString()
  .max(500, 'Link is too long')
  .refine(
    (v) => v.startsWith('/') && !v.startsWith('//') && !v.includes('\\'),
    'A link must be a path in the app',
  );

/** What a feature hands the notification service. */
export const ZNotify = z.object({
  orgId: z.uuid(),
  memberIds: z.array(z.uuid()).max(1000),
  kind: z.enum(NOTIFICATION_KINDS),
  title: zString().trim().min(1).max(200),
  body: zString().trim().max(2000).optional(),
  link: ZAppLink.optional(),
});
export type TNotify = z.input<typeof ZNotify>;

export const ZNotificationList = ZPageInput.pick({ page: true, pageSize: true }).extend({
  /** Unread ones first, newest first within each group. */
  unreadFirst: z.boolean().default(false),
  unreadOnly: z.boolean().default(false),
});
export type TNotificationListInput = z.input<typeof ZNotificationList>;
export type TNotificationListQuery = z.output<typeof ZNotificationList>;

export const ZMarkRead = z.object({
  ids: z
    .array(z.uuid('Not a notification id'))
    .min(1, 'Choose a notification')
    .max(100, 'At most 100 at a time'),
});

export const ZNotificationPreference = z.object({
  kind: z.enum(NOTIFICATION_KINDS, 'Not a kind of notification'),
  inApp: z.boolean(),
  email: z.boolean(),
});
export type TNotificationPreference = z.infer<typeof ZNotificationPreference>;
