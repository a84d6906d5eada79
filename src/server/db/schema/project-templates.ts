import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs, roles } from './org';

/** A reusable plan of work: the tasks a service's project starts with. */
export const projectTemplates = pgTable(
  'project_templates',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The hours budget (minutes) its projects start with. */
    budgetMinutes: integer('budget_minutes'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('project_templates_org_id_id_key').on(t.orgId, t.id),
    unique('project_templates_org_id_name_key').on(t.orgId, t.name),
  ],
);

/** One ordered stage of a project template (Waiting on client → Preparation → Review → …). */
export const templateStages = pgTable(
  'template_stages',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('template_stages_org_id_id_key').on(t.orgId, t.id),
    index('template_stages_template_idx').on(t.orgId, t.templateId, t.position),
    foreignKey({
      name: 'template_stages_template_fk',
      columns: [t.orgId, t.templateId],
      foreignColumns: [projectTemplates.orgId, projectTemplates.id],
    }).onDelete('cascade'),
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
    assigneeRoleId: uuid('assignee_role_id'),
    assigneeMemberId: uuid('assignee_member_id'),
    checklist: jsonb('checklist').$type<string[]>().notNull().default([]),
    forClient: boolean('for_client').notNull().default(false),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** The hours budget (minutes) the task made from it starts with. */
    budgetMinutes: integer('budget_minutes'),
    /** The stage of the template the task belongs to ("all tasks of a stage done"); null: none. */
    stageId: uuid('stage_id'),
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
    foreignKey({
      name: 'template_tasks_assignee_role_fk',
      columns: [t.orgId, t.assigneeRoleId],
      foreignColumns: [roles.orgId, roles.id],
    }).onDelete('set null'), // SET NULL (assignee_role_id)
    foreignKey({
      name: 'template_tasks_assignee_member_fk',
      columns: [t.orgId, t.assigneeMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (assignee_member_id)
    index('template_tasks_stage_idx').on(t.orgId, t.stageId),
    foreignKey({
      name: 'template_tasks_stage_fk',
      columns: [t.orgId, t.stageId],
      foreignColumns: [templateStages.orgId, templateStages.id],
    }).onDelete('set null'), // SET NULL (stage_id)
  ],
);
