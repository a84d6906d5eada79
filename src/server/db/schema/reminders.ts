import { sql } from 'drizzle-orm';
import {
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  REMINDER_CHANNELS,
  REMINDER_RECURRENCES,
  REMINDER_STATUSES,
  REMINDER_TYPES,
} from '../../../domain/reminders';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';
import { projects } from './projects';
import { requests } from './requests';
import { tasks } from './tasks';

/**
 * A reminder: to a client (`client`), to members (`team`), or ahead of an item's expiry (`expiry`,
 * to the client and the responsible members). `remindAt` is the next send; `anchorAt` the first one,
 * from which every recurrence is counted so a reminder on the 31st comes back on the 31st after a
 * short month. A deleted project or task clears the link (SET NULL (project_id), see columns.ts).
 */
export const reminders = pgTable(
  'reminders',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REMINDER_TYPES }).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    clientId: uuid('client_id'),
    projectId: uuid('project_id'),
    taskId: uuid('task_id'),
    /** A client request's chase (request-chase.ts): mailed to that request's recipients only. */
    requestId: uuid('request_id'),
    remindAt: timestamp('remind_at', { withTimezone: true }).notNull(),
    anchorAt: timestamp('anchor_at', { withTimezone: true }).notNull(),
    recurrence: text('recurrence', { enum: REMINDER_RECURRENCES }).notNull().default('none'),
    channels: text('channels', { enum: REMINDER_CHANNELS }).array().notNull().default(sql`'{email}'::text[]`),
    status: text('status', { enum: REMINDER_STATUSES }).notNull().default('scheduled'),
    itemName: text('item_name'),
    expiryDate: date('expiry_date', { mode: 'string' }),
    daysBefore: integer('days_before'),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('reminders_org_id_id_key').on(t.orgId, t.id),
    index('reminders_org_type_remind_idx').on(t.orgId, t.type, t.remindAt, t.id),
    index('reminders_org_type_status_idx').on(t.orgId, t.type, t.status, t.remindAt),
    index('reminders_client_idx').on(t.orgId, t.clientId),
    index('reminders_request_idx').on(t.orgId, t.requestId).where(sql`request_id is not null`),
    // The scan for due reminders across firms.
    index('reminders_due_idx').on(t.remindAt).where(sql`status = 'scheduled'`),
    foreignKey({
      name: 'reminders_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminders_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'reminders_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('set null'), // SET NULL (task_id)
    foreignKey({
      name: 'reminders_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [requests.orgId, requests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminders_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/** The members a team reminder goes to, or those responsible for an expiring item. */
export const reminderMembers = pgTable(
  'reminder_members',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    reminderId: uuid('reminder_id').notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.reminderId, t.memberId] }),
    index('reminder_members_member_idx').on(t.orgId, t.memberId),
    foreignKey({
      name: 'reminder_members_reminder_fk',
      columns: [t.orgId, t.reminderId],
      foreignColumns: [reminders.orgId, reminders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminder_members_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

export const REMINDER_DELIVERY_STATUSES = ['sent', 'failed'] as const;

/**
 * Every attempt to deliver one occurrence of a reminder to one recipient on one channel. A retry
 * skips recipients already sent for the same `occurrenceAt`, so nobody gets it twice.
 */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    reminderId: uuid('reminder_id').notNull(),
    occurrenceAt: timestamp('occurrence_at', { withTimezone: true }).notNull(),
    channel: text('channel', { enum: REMINDER_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    memberId: uuid('member_id'),
    status: text('status', { enum: REMINDER_DELIVERY_STATUSES }).notNull(),
    attempt: integer('attempt').notNull(),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reminder_deliveries_reminder_idx').on(t.orgId, t.reminderId, t.sentAt),
    foreignKey({
      name: 'reminder_deliveries_reminder_fk',
      columns: [t.orgId, t.reminderId],
      foreignColumns: [reminders.orgId, reminders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminder_deliveries_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (member_id)
  ],
);
