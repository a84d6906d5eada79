import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { DEFAULT_DAILY_LIMIT_MINUTES } from '../../../domain/timesheet-approval';
import { RATE_KINDS } from '../../../domain/timesheet-rates';
import { ENTRY_STATUSES, WEEK_STATUSES } from '../../../domain/timesheets';
import { invoiceLines } from './billing';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';
import { projects } from './projects';
import { services } from './services';
import { tasks } from './tasks';

/**
 * Time a member spent on a day. A deleted client, project, task or service keeps the time and
 * clears the link (SET NULL (x), see columns.ts); rates are copied in when the week is approved, so
 * a later change of rate never rewrites what was billed.
 */
export const timesheetEntries = pgTable(
  'timesheet_entries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    minutes: integer('minutes').notNull(),
    clientId: uuid('client_id'),
    projectId: uuid('project_id'),
    taskId: uuid('task_id'),
    serviceId: uuid('service_id'),
    billable: boolean('billable').notNull().default(false),
    note: text('note').notNull().default(''),
    status: text('status', { enum: ENTRY_STATUSES }).notNull().default('draft'),
    /** Per hour, in the currency's minor unit, frozen at approval. */
    billRate: integer('bill_rate'),
    costRate: integer('cost_rate'),
    /**
     * The invoice line that bills it (issue 35): set when it goes on a draft, so it is never billed
     * twice; cleared (back to WIP) when the line is removed or its invoice voided.
     */
    invoiceLineId: uuid('invoice_line_id'),
    /** Its share of the line's amount at issue, for realization by member (billed ÷ standard). */
    billedAmount: bigint('billed_amount', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('timesheet_entries_org_id_id_key').on(t.orgId, t.id),
    // My week reads by (org, member, date).
    index('timesheet_entries_member_date_idx').on(t.orgId, t.memberId, t.date),
    // The team's week sums minutes by member and day from the index alone (an index-only scan):
    // reading the table instead costs a heap visit per entry, 50,000 of them for a firm of 500. The
    // reports sum a period's time by member or client, billable or not, and value approved time at
    // its frozen rates from it too.
    index('timesheet_entries_org_date_minutes_idx').on(
      t.orgId,
      t.date,
      t.memberId,
      t.minutes,
      t.billable,
      t.status,
      t.clientId,
      t.billRate,
      t.costRate,
    ),
    // Time not yet approved is valued at today's rates, entry by entry: this keeps those few apart
    // from the approved bulk that needs no rate, with every column the valuation reads (the rates'
    // keys too), so it is an index-only scan (timesheets/time-logged.ts).
    index('timesheet_entries_unapproved_idx')
      .on(
        t.orgId,
        t.date,
        t.memberId,
        t.clientId,
        t.taskId,
        t.serviceId,
        t.minutes,
        t.billable,
        t.status,
        t.billRate,
        t.costRate,
      )
      .where(sql`status <> 'approved'`),
    // The client summary's page: the time of 50 clients, not a scan of the period's.
    index('timesheet_entries_client_date_idx')
      .on(t.orgId, t.clientId, t.date)
      .where(sql`client_id is not null`),
    index('timesheet_entries_task_idx').on(t.orgId, t.taskId).where(sql`task_id is not null`),
    // With the minutes: a project's time against its budget (the reports) without the table.
    index('timesheet_entries_project_idx')
      .on(t.orgId, t.projectId, t.minutes)
      .where(sql`project_id is not null`),
    // Work in progress: a client's approved billable time not yet on an invoice.
    index('timesheet_entries_wip_idx')
      .on(t.orgId, t.clientId, t.date)
      .where(sql`billable and status = 'approved' and invoice_line_id is null and client_id is not null`),
    index('timesheet_entries_invoice_line_idx')
      .on(t.orgId, t.invoiceLineId)
      .where(sql`invoice_line_id is not null`),
    foreignKey({
      name: 'timesheet_entries_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'timesheet_entries_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('set null'), // SET NULL (client_id)
    foreignKey({
      name: 'timesheet_entries_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'timesheet_entries_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('set null'), // SET NULL (task_id)
    foreignKey({
      name: 'timesheet_entries_invoice_line_fk',
      columns: [t.orgId, t.invoiceLineId],
      foreignColumns: [invoiceLines.orgId, invoiceLines.id],
    }).onDelete('set null'), // SET NULL (invoice_line_id)
    foreignKey({
      name: 'timesheet_entries_service_fk',
      columns: [t.orgId, t.serviceId],
      foreignColumns: [services.orgId, services.id],
    }).onDelete('set null'), // SET NULL (service_id)
  ],
);

/** A member's week once it has been submitted: its state and the approver's word. */
export const timesheetWeeks = pgTable(
  'timesheet_weeks',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    status: text('status', { enum: WEEK_STATUSES }).notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
    comment: text('comment'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.memberId, t.weekStart] }),
    index('timesheet_weeks_org_week_idx').on(t.orgId, t.weekStart),
    foreignKey({
      name: 'timesheet_weeks_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'timesheet_weeks_decided_by_fk',
      columns: [t.orgId, t.decidedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (decided_by)
  ],
);

/**
 * The firm's timesheet rules. The lock: days on or before lock_date cannot change once grace_days
 * after it have passed. Approval: a day past daily_limit_minutes is flagged to the approver, and
 * approvers' own weeks go to approvers_approver_id (the owner when none is named).
 */
export const timesheetSettings = pgTable(
  'timesheet_settings',
  {
    orgId: uuid('org_id')
      .primaryKey()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    lockDate: date('lock_date', { mode: 'string' }),
    graceDays: integer('grace_days').notNull().default(0),
    dailyLimitMinutes: integer('daily_limit_minutes').notNull().default(DEFAULT_DAILY_LIMIT_MINUTES),
    approversApproverId: uuid('approvers_approver_id'),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({
      name: 'timesheet_settings_approvers_approver_fk',
      columns: [t.orgId, t.approversApproverId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (approvers_approver_id)
  ],
);

/**
 * A running timer. One per member, held by the partial unique index: a second start in a race
 * fails in the database, not in a check that two requests can both pass.
 */
export const timesheetTimers = pgTable(
  'timesheet_timers',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** Stopped by the 16-hour rule: the member still owes the real end time. */
    autoStopped: boolean('auto_stopped').notNull().default(false),
    noticeSentAt: timestamp('notice_sent_at', { withTimezone: true }),
    clientId: uuid('client_id'),
    projectId: uuid('project_id'),
    taskId: uuid('task_id'),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('timesheet_timers_running_key').on(t.orgId, t.memberId).where(sql`stopped_at is null`),
    index('timesheet_timers_running_idx').on(t.startedAt).where(sql`stopped_at is null`),
    foreignKey({
      name: 'timesheet_timers_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'timesheet_timers_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('set null'), // SET NULL (client_id)
    foreignKey({
      name: 'timesheet_timers_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('set null'), // SET NULL (project_id)
    foreignKey({
      name: 'timesheet_timers_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('set null'), // SET NULL (task_id)
  ],
);

/**
 * Hourly rates in the currency's minor unit: a member's cost (`cost`, ref = member), and billing
 * rates by member, client, service or task; the most specific one wins (task → service → client →
 * member).
 */
export const timesheetRates = pgTable(
  'timesheet_rates',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: RATE_KINDS }).notNull(),
    refId: uuid('ref_id').notNull(),
    rate: integer('rate').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.kind, t.refId] })],
);
