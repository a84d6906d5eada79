import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ACCRUALS,
  HOLIDAY_PARTS,
  LEAVE_PARTS,
  LEAVE_STATUSES,
  LEAVE_UNITS,
  LEDGER_KINDS,
  ROUNDINGS,
} from '../../../domain/leave';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/** The firm's leave settings: its work pattern, offices, second approval and away warning. */
export const leaveSettings = pgTable('leave_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** ISO weekdays, 1 = Monday. */
  workingDays: smallint('working_days').array().notNull().default(sql`'{1,2,3,4,5}'::smallint[]`),
  minutesPerDay: integer('minutes_per_day').notNull().default(480),
  offices: text('offices').array().notNull().default(sql`'{}'::text[]`),
  secondLevelAfterDays: integer('second_level_after_days'),
  awayWarnPercent: integer('away_warn_percent').notNull().default(30),
  updatedAt: updatedAt(),
});

/**
 * A member's place in leave: who approves their leave (manager), their office (for its holidays)
 * and their own work pattern where it differs from the firm's (null columns: the firm's).
 * A removed manager clears the link (SET NULL (manager_id), see columns.ts).
 */
export const memberWork = pgTable(
  'member_work',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    managerId: uuid('manager_id'),
    office: text('office'),
    workingDays: smallint('working_days').array(),
    minutesPerDay: integer('minutes_per_day'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('member_work_org_id_id_key').on(t.orgId, t.id),
    unique('member_work_org_member_key').on(t.orgId, t.memberId),
    index('member_work_org_manager_idx').on(t.orgId, t.managerId),
    foreignKey({
      name: 'member_work_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'member_work_manager_fk',
      columns: [t.orgId, t.managerId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (manager_id)
  ],
);

/** A holiday: firm-wide (office null) or one office's; a whole day or one half of it. */
export const holidays = pgTable(
  'holidays',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
    office: text('office'),
    part: text('part', { enum: HOLIDAY_PARTS }).notNull().default('full'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('holidays_org_id_id_key').on(t.orgId, t.id),
    uniqueIndex('holidays_org_date_office_idx').on(t.orgId, t.date, sql`coalesce(${t.office}, '')`),
  ],
);

/** A kind of leave and its rules; amounts are hundredths of its unit (src/domain/leave.ts). */
export const leaveTypes = pgTable(
  'leave_types',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    paid: boolean('paid').notNull().default(true),
    unit: text('unit', { enum: LEAVE_UNITS }).notNull().default('day'),
    accrual: text('accrual', { enum: ACCRUALS }).notNull().default('yearly'),
    allowance: integer('allowance').notNull().default(0),
    rounding: text('rounding', { enum: ROUNDINGS }).notNull().default('none'),
    carryForwardCap: integer('carry_forward_cap'),
    carryForwardExpiryMonths: smallint('carry_forward_expiry_months'),
    allowNegative: boolean('allow_negative').notNull().default(false),
    countWeekends: boolean('count_weekends').notNull().default(false),
    countHolidays: boolean('count_holidays').notNull().default(false),
    maxConsecutiveDays: integer('max_consecutive_days'),
    attachmentAfterDays: integer('attachment_after_days'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('leave_types_org_id_id_key').on(t.orgId, t.id),
    unique('leave_types_org_name_key').on(t.orgId, t.name),
  ],
);

/** A request for leave and its decision (one or two levels). */
export const leaveRequests = pgTable(
  'leave_requests',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    leaveTypeId: uuid('leave_type_id').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    part: text('part', { enum: LEAVE_PARTS }).notNull().default('full'),
    minutes: integer('minutes'),
    amount: integer('amount').notNull(),
    reason: text('reason'),
    status: text('status', { enum: LEAVE_STATUSES }).notNull().default('pending'),
    /** Long requests the firm sends to a second approver once the first has approved. */
    needsSecondLevel: boolean('needs_second_level').notNull().default(false),
    firstApproverId: uuid('first_approver_id'),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionComment: text('decision_comment'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('leave_requests_org_id_id_key').on(t.orgId, t.id),
    index('leave_requests_org_member_start_idx').on(t.orgId, t.memberId, t.startDate),
    index('leave_requests_org_status_start_idx').on(t.orgId, t.status, t.startDate),
    // Approved leave touching a week (availability, expected hours): those ending on or after its
    // first day are the few recent and future ones; by start date it would be every past request.
    index('leave_requests_org_status_end_idx').on(t.orgId, t.status, t.endDate),
    foreignKey({
      name: 'leave_requests_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'leave_requests_type_fk',
      columns: [t.orgId, t.leaveTypeId],
      foreignColumns: [leaveTypes.orgId, leaveTypes.id],
    }),
    foreignKey({
      name: 'leave_requests_first_approver_fk',
      columns: [t.orgId, t.firstApproverId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (first_approver_id)
    foreignKey({
      name: 'leave_requests_decided_by_fk',
      columns: [t.orgId, t.decidedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (decided_by)
  ],
);

/**
 * A file a member sent with a leave request (a medical certificate), kept apart from the firm's
 * documents: only the member and whoever decides their leave see it. It is uploaded before the
 * request exists (`request_id` null) and linked when the request is submitted; an upload never
 * linked is deleted by the `leave.run` job after a day, and its stored bytes by the orphan sweep.
 */
export const leaveAttachments = pgTable(
  'leave_attachments',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    requestId: uuid('request_id'),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('leave_attachments_org_id_id_key').on(t.orgId, t.id),
    unique('leave_attachments_storage_key').on(t.storageKey),
    // One file per request.
    uniqueIndex('leave_attachments_org_request_idx').on(t.orgId, t.requestId),
    index('leave_attachments_unlinked_idx').on(t.createdAt).where(sql`${t.requestId} is null`),
    foreignKey({
      name: 'leave_attachments_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'leave_attachments_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [leaveRequests.orgId, leaveRequests.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The append-only ledger balances are summed from. `runKey` makes a job's entry idempotent: a
 * second run for the same member, type and period finds its key taken and adds nothing.
 */
export const leaveLedger = pgTable(
  'leave_ledger',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull(),
    leaveTypeId: uuid('leave_type_id').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    amount: integer('amount').notNull(),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    requestId: uuid('request_id'),
    runKey: text('run_key'),
    note: text('note'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('leave_ledger_org_id_id_key').on(t.orgId, t.id),
    unique('leave_ledger_org_run_key').on(t.orgId, t.runKey),
    // Balances of a year sum amounts by member and type from the index alone (an index-only scan).
    index('leave_ledger_org_effective_amount_idx').on(
      t.orgId,
      t.effectiveOn,
      t.memberId,
      t.leaveTypeId,
      t.kind,
      t.amount,
    ),
    index('leave_ledger_org_member_idx').on(t.orgId, t.memberId, t.leaveTypeId, t.effectiveOn),
    foreignKey({
      name: 'leave_ledger_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'leave_ledger_type_fk',
      columns: [t.orgId, t.leaveTypeId],
      foreignColumns: [leaveTypes.orgId, leaveTypes.id],
    }),
    foreignKey({
      name: 'leave_ledger_request_fk',
      columns: [t.orgId, t.requestId],
      foreignColumns: [leaveRequests.orgId, leaveRequests.id],
    }),
    foreignKey({
      name: 'leave_ledger_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/** One run of the accrual or year-end job for a firm and period, kept for the admins to read. */
export const leaveRuns = pgTable(
  'leave_runs',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['accrual', 'year_end'] }).notNull(),
    period: text('period').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] })
      .notNull()
      .default('running'),
    entries: integer('entries').notNull().default(0),
    error: text('error'),
    startedAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    unique('leave_runs_org_id_id_key').on(t.orgId, t.id),
    index('leave_runs_org_started_idx').on(t.orgId, t.startedAt),
  ],
);
