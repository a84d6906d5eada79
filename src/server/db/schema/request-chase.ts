import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, orgId, updatedAt } from './columns';
import { orgs } from './org';
import { reminders } from './reminders';
import { requests } from './requests';

// Chasing client requests (issue 36, item 5): the firm's default schedule, and the steps each
// request has been reminded at. A step's row is written before its reminder, and its primary key
// refuses a second, so two instances running the job at once mail it once.

/** The firm's defaults for requests: copied onto each request when it is made. No row: the defaults. */
export const requestSettings = pgTable('request_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  chaseBeforeDays: smallint('chase_before_days').array().notNull().default(sql`'{7,1}'::smallint[]`),
  chaseOnDue: boolean('chase_on_due').notNull().default(true),
  chaseEveryDays: smallint('chase_every_days').default(3),
  /** Unanswered reminders after which a request needs attention and its sender hears of it. */
  flagAfter: smallint('flag_after').notNull().default(3),
  updatedAt: updatedAt(),
});

/** One reminder step of one request ('before:7', 'due', 'after:2'), sent once. */
export const requestReminderSteps = pgTable(
  'request_reminder_steps',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').notNull(),
    step: text('step').notNull(),
    /** The client reminder that mailed it: its deliveries are the client's history. */
    reminderId: uuid('reminder_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.requestId, t.step] }),
    index('request_reminder_steps_reminder_idx').on(t.orgId, t.reminderId),
    foreignKey({
      name: 'request_reminder_steps_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [requests.orgId, requests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'request_reminder_steps_reminder_fk',
      columns: [t.orgId, t.reminderId],
      foreignColumns: [reminders.orgId, reminders.id],
    }).onDelete('set null'), // SET NULL (reminder_id)
  ],
);
