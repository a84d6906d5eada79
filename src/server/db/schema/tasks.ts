import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
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
import { STORED_STATUSES } from '../../../domain/status';
import { TASK_PRIORITIES } from '../../../domain/tasks';
import { clients } from './clients';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs } from './org';
import { clientUsers } from './portal';
import { templateStages, templateTasks } from './project-templates';
import { projects } from './projects';

export type TChecklistItem = { id: string; text: string; done: boolean };

/**
 * A task, inside a project or standing alone for a client (or for nobody: internal work).
 * `forClient` tasks are the client's to do in the portal. `position` orders cards within a
 * board column (fractional, so a drag moves one row).
 */
export const tasks = pgTable(
  'tasks',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id'),
    clientId: uuid('client_id'),
    templateTaskId: uuid('template_task_id'),
    /** The template stage the task belongs to, copied from its blueprint; null: none. */
    stageId: uuid('stage_id'),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status', { enum: STORED_STATUSES }).notNull().default('SCHEDULED'),
    priority: text('priority', { enum: TASK_PRIORITIES }).notNull().default('medium'),
    dueDate: date('due_date', { mode: 'string' }),
    completedDate: timestamp('completed_date', { withTimezone: true }),
    reviewerId: uuid('reviewer_id'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    checklist: jsonb('checklist').$type<TChecklistItem[]>().notNull().default([]),
    forClient: boolean('for_client').notNull().default(false),
    position: doublePrecision('position').notNull().default(0),
    /** Hours budget in minutes (null: none); `budgetNotified` is the threshold last announced. */
    budgetMinutes: integer('budget_minutes'),
    budgetNotified: integer('budget_notified').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('tasks_org_id_id_key').on(t.orgId, t.id),
    index('tasks_org_due_idx').on(t.orgId, t.dueDate, t.id),
    // The lists' default: open work by due date (completed only on request), so the first page of
    // a firm whose tasks are mostly completed does not walk past them. The client makes the reports'
    // "clients behind" an index-only count.
    index('tasks_org_open_due_idx')
      .on(t.orgId, t.dueDate, t.id, t.clientId)
      .where(sql`${t.status} <> 'COMPLETED'`),
    // The reports' tasks due in a period, by client and status, read from the index alone (an
    // index-only scan): the heap visit per task was most of a client summary's time on a large firm.
    index('tasks_org_due_report_idx').on(
      t.orgId,
      t.dueDate,
      t.clientId,
      t.status,
      t.completedDate,
      t.projectId,
    ),
    // The client summary's open client to-dos per client.
    index('tasks_org_open_todo_idx')
      .on(t.orgId, t.clientId)
      .where(sql`${t.forClient} and ${t.status} <> 'COMPLETED'`),
    // Completed tasks by date; with the id, the team report joins a period's completed tasks to their
    // assignees from the index alone (without it, it read 120,000 tasks' rows for their ids).
    index('tasks_org_completed_id_idx')
      .on(t.orgId, t.completedDate, t.id)
      .where(sql`${t.completedDate} is not null`),
    // The team report's work ahead: the budgeted open tasks only (most tasks carry no budget).
    index('tasks_open_budgeted_idx')
      .on(t.orgId, t.id)
      .where(sql`${t.budgetMinutes} is not null and ${t.status} <> 'COMPLETED'`),
    // The list's "date added" sort.
    index('tasks_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('tasks_org_status_due_idx').on(t.orgId, t.status, t.dueDate, t.id),
    index('tasks_org_priority_due_idx').on(t.orgId, t.priority, t.dueDate, t.id),
    // Status and priority together (the list's two most used filters), by due date; also what the
    // capped count reads instead of the table.
    index('tasks_org_status_priority_due_idx').on(t.orgId, t.status, t.priority, t.dueDate, t.id),
    // A board column (one status) in card order.
    index('tasks_org_status_position_idx').on(t.orgId, t.status, t.position, t.id),
    index('tasks_project_idx').on(t.orgId, t.projectId, t.position),
    index('tasks_client_idx').on(t.orgId, t.clientId, t.dueDate),
    index('tasks_reviewer_idx').on(t.orgId, t.reviewerId),
    // Removing a template's task clears the link in the tasks made from it (tasks_template_task_fk).
    index('tasks_template_task_idx').on(t.orgId, t.templateTaskId),
    // "All tasks of a stage done": a project's open tasks of one stage (and the stage key's cover).
    index('tasks_stage_idx').on(t.orgId, t.stageId, t.projectId).where(sql`${t.stageId} is not null`),
    index('tasks_tags_idx').using('gin', t.tags),
    index('tasks_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    foreignKey({
      name: 'tasks_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'tasks_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'tasks_template_task_fk',
      columns: [t.orgId, t.templateTaskId],
      foreignColumns: [templateTasks.orgId, templateTasks.id],
    }).onDelete('set null'), // SET NULL (template_task_id)
    foreignKey({
      name: 'tasks_stage_fk',
      columns: [t.orgId, t.stageId],
      foreignColumns: [templateStages.orgId, templateStages.id],
    }).onDelete('set null'), // SET NULL (stage_id)
    foreignKey({
      name: 'tasks_reviewer_fk',
      columns: [t.orgId, t.reviewerId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (reviewer_id)
    foreignKey({
      name: 'tasks_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

export const taskAssignees = pgTable(
  'task_assignees',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').notNull(),
    memberId: uuid('member_id').notNull(),
    /**
     * Copied from the task so "my tasks by due date" is one index range, not a join and sort. The
     * database keeps both copies (migration 0030's triggers, with the completion date since 0035:
     * set on insert, followed on every change of the task's), whatever statement makes the change.
     */
    dueDate: date('due_date', { mode: 'string' }),
    status: text('status', { enum: STORED_STATUSES }).notNull().default('SCHEDULED'),
    completedDate: timestamp('completed_date', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.taskId, t.memberId] }),
    index('task_assignees_member_due_idx').on(t.orgId, t.memberId, t.dueDate, t.taskId),
    // The home page's "my open" and "my overdue": an index-only count of the member's open tasks.
    index('task_assignees_member_open_due_idx')
      .on(t.orgId, t.memberId, t.dueDate)
      .where(sql`${t.status} in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW')`),
    // The team report's "completed in the period", per member: one index range over the period.
    index('task_assignees_completed_idx')
      .on(t.orgId, t.completedDate, t.memberId)
      .where(sql`${t.completedDate} is not null`),
    foreignKey({
      name: 'task_assignees_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_assignees_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

/** A comment on a task; `mentions` are the members it notified. */
export const taskComments = pgTable(
  'task_comments',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').notNull(),
    authorMemberId: uuid('author_member_id'),
    /** Set instead of the member when a client user comments from the portal. */
    authorClientUserId: uuid('author_client_user_id'),
    body: text('body').notNull(),
    mentions: uuid('mentions').array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('task_comments_org_id_id_key').on(t.orgId, t.id),
    index('task_comments_task_idx').on(t.orgId, t.taskId, t.createdAt),
    foreignKey({
      name: 'task_comments_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_comments_author_member_fk',
      columns: [t.orgId, t.authorMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (author_member_id)
    foreignKey({
      name: 'task_comments_author_client_user_fk',
      columns: [t.orgId, t.authorClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (author_client_user_id)
  ],
);

/**
 * Every change of a task's status from the reports feature on (who, when, from, to): cycle time and
 * "who completed which stage, when" are read from it. Written only by tasks/status-history.ts, in
 * the transaction of the change. `fromStatus` is null for the status a task was created with.
 */
export const taskStatusChanges = pgTable(
  'task_status_changes',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').notNull(),
    fromStatus: text('from_status', { enum: STORED_STATUSES }),
    toStatus: text('to_status', { enum: STORED_STATUSES }).notNull(),
    memberId: uuid('member_id'),
    clientUserId: uuid('client_user_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('task_status_changes_task_idx').on(t.orgId, t.taskId, t.at),
    // "Completed in the period" by who completed: the team summary's range.
    index('task_status_changes_org_to_at_idx').on(t.orgId, t.toStatus, t.at, t.memberId),
    foreignKey({
      name: 'task_status_changes_task_fk',
      columns: [t.orgId, t.taskId],
      foreignColumns: [tasks.orgId, tasks.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_status_changes_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (member_id)
    foreignKey({
      name: 'task_status_changes_client_user_fk',
      columns: [t.orgId, t.clientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('set null'), // SET NULL (client_user_id)
  ],
);
