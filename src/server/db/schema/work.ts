import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { clientServices, clients, services } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs, roles } from './org';

// Single-column references where a deletion should only clear the link (SET NULL on a composite
// (org_id, x) key would clear org_id too); the procedures check the org of every id they store.

/** Stored statuses of projects and tasks (SPEC.md §4); OVERDUE is derived, never stored. */
export const WORK_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW', 'COMPLETED'] as const;
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

export type TChecklistItem = { id: string; text: string; done: boolean };

/** A reusable plan of work: the tasks a service's project starts with. */
export const projectTemplates = pgTable(
  'project_templates',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('project_templates_org_id_id_key').on(t.orgId, t.id),
    unique('project_templates_org_id_name_key').on(t.orgId, t.name),
  ],
);

/**
 * One task blueprint of a template. `dueOffsetDays` counts from the end of the project's period
 * (negative: before it ends); the assignee is a role (resolved to the engagement's assignees who
 * hold it) or a member.
 */
export const templateTasks = pgTable(
  'template_tasks',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id').notNull(),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    dueOffsetDays: integer('due_offset_days').notNull().default(0),
    assigneeRoleId: uuid('assignee_role_id').references(() => roles.id, { onDelete: 'set null' }),
    assigneeMemberId: uuid('assignee_member_id').references(() => members.id, { onDelete: 'set null' }),
    checklist: jsonb('checklist').$type<string[]>().notNull().default([]),
    forClient: boolean('for_client').notNull().default(false),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('template_tasks_org_id_id_key').on(t.orgId, t.id),
    index('template_tasks_template_idx').on(t.orgId, t.templateId, t.position),
    foreignKey({
      name: 'template_tasks_template_fk',
      columns: [t.orgId, t.templateId],
      foreignColumns: [projectTemplates.orgId, projectTemplates.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A piece of work for a client, usually one period of an engagement (GST return for 2026-03).
 * `periodKey` ('2026-03', '2026-Q1', '2026-H1', '2026', 'once') with the engagement makes recurring
 * generation idempotent: the unique key turns a second run, or a second server, into a no-op.
 */
export const projects = pgTable(
  'projects',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    serviceId: uuid('service_id'),
    clientServiceId: uuid('client_service_id').references(() => clientServices.id, { onDelete: 'set null' }),
    templateId: uuid('template_id').references(() => projectTemplates.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    periodKey: text('period_key'),
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    status: text('status', { enum: WORK_STATUSES }).notNull().default('SCHEDULED'),
    startDate: date('start_date', { mode: 'string' }),
    dueDate: date('due_date', { mode: 'string' }),
    completedDate: timestamp('completed_date', { withTimezone: true }),
    ownerId: uuid('owner_id').references(() => members.id, { onDelete: 'set null' }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('projects_org_id_id_key').on(t.orgId, t.id),
    unique('projects_engagement_period_key').on(t.orgId, t.clientServiceId, t.periodKey),
    index('projects_org_due_idx').on(t.orgId, t.dueDate, t.id),
    index('projects_org_status_due_idx').on(t.orgId, t.status, t.dueDate, t.id),
    index('projects_client_idx').on(t.orgId, t.clientId, t.dueDate),
    index('projects_service_idx').on(t.orgId, t.serviceId, t.dueDate),
    index('projects_owner_idx').on(t.orgId, t.ownerId),
    // Open projects by due date: the dashboard's overdue and due-this-week counts read only these.
    index('projects_open_due_idx')
      .on(t.orgId, t.dueDate)
      .where(sql`${t.status} in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW') and ${t.archivedAt} is null`),
    foreignKey({
      name: 'projects_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'projects_service_fk',
      columns: [t.orgId, t.serviceId],
      foreignColumns: [services.orgId, services.id],
    }),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.projectId, t.memberId] }),
    index('project_members_member_idx').on(t.orgId, t.memberId),
    foreignKey({
      name: 'project_members_project_fk',
      columns: [t.orgId, t.projectId],
      foreignColumns: [projects.orgId, projects.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'project_members_member_fk',
      columns: [t.orgId, t.memberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('cascade'),
  ],
);

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
    title: text('title').notNull(),
    description: text('description'),
    status: text('status', { enum: WORK_STATUSES }).notNull().default('SCHEDULED'),
    priority: text('priority', { enum: TASK_PRIORITIES }).notNull().default('medium'),
    dueDate: date('due_date', { mode: 'string' }),
    completedDate: timestamp('completed_date', { withTimezone: true }),
    reviewerId: uuid('reviewer_id').references(() => members.id, { onDelete: 'set null' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    checklist: jsonb('checklist').$type<TChecklistItem[]>().notNull().default([]),
    forClient: boolean('for_client').notNull().default(false),
    position: doublePrecision('position').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('tasks_org_id_id_key').on(t.orgId, t.id),
    index('tasks_org_due_idx').on(t.orgId, t.dueDate, t.id),
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
  ],
);

export const taskAssignees = pgTable(
  'task_assignees',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').notNull(),
    memberId: uuid('member_id').notNull(),
    /** Copied from the task so "my tasks by due date" is one index range, not a join and sort. */
    dueDate: date('due_date', { mode: 'string' }),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.taskId, t.memberId] }),
    index('task_assignees_member_due_idx').on(t.orgId, t.memberId, t.dueDate, t.taskId),
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
    authorMemberId: uuid('author_member_id').references(() => members.id, { onDelete: 'set null' }),
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
  ],
);
