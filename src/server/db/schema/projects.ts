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
import { STORED_STATUSES } from '../../../domain/status';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { clientServices } from './engagements';
import { members, orgs } from './org';
import { projectTemplates, templateStages } from './project-templates';
import { services } from './services';

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
    clientServiceId: uuid('client_service_id'),
    templateId: uuid('template_id'),
    /** The template stage the project is in (automations); null when its template has none. */
    stageId: uuid('stage_id'),
    name: text('name').notNull(),
    description: text('description'),
    periodKey: text('period_key'),
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    status: text('status', { enum: STORED_STATUSES }).notNull().default('SCHEDULED'),
    startDate: date('start_date', { mode: 'string' }),
    dueDate: date('due_date', { mode: 'string' }),
    completedDate: timestamp('completed_date', { withTimezone: true }),
    ownerId: uuid('owner_id'),
    /** Hours budget in minutes (null: none); `budgetNotified` is the threshold last announced (budgets.ts). */
    budgetMinutes: integer('budget_minutes'),
    budgetNotified: integer('budget_notified').notNull().default(0),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /**
     * The engagement's service and dates, copied by triggers (migration 0038) whenever the project's
     * engagement or the engagement itself changes: the services summary tells which engagement
     * periods have a project from the projects alone, where joining each project to its engagement
     * was most of that report.
     */
    engagementServiceId: uuid('engagement_service_id'),
    engagementStart: date('engagement_start', { mode: 'string' }),
    engagementEnd: date('engagement_end', { mode: 'string' }),
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
    // Projects not archived by due date, any status: the dashboard's "due this week", and the
    // reports' projects due in a period (status, client, budget), all index-only.
    index('projects_live_due_idx')
      .on(t.orgId, t.dueDate, t.status, t.clientId, t.budgetMinutes, t.id)
      .where(sql`${t.archivedAt} is null`),
    // The services summary reads its projects (a service's periods, or its one-time projects due
    // in the range) and the engagement periods that have one from this index alone: sequential
    // scans of every project were half that report's time.
    index('projects_service_period_idx').on(
      t.orgId,
      t.serviceId,
      t.periodKey,
      t.dueDate,
      t.clientServiceId,
      t.clientId,
      t.archivedAt,
      t.status,
      t.completedDate,
      t.createdAt,
      t.budgetMinutes,
      t.id,
      t.engagementServiceId,
      t.engagementStart,
      t.engagementEnd,
    ),
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
    foreignKey({
      name: 'projects_client_service_fk',
      columns: [t.orgId, t.clientServiceId],
      foreignColumns: [clientServices.orgId, clientServices.id],
    }).onDelete('set null'), // SET NULL (client_service_id)
    foreignKey({
      name: 'projects_template_fk',
      columns: [t.orgId, t.templateId],
      foreignColumns: [projectTemplates.orgId, projectTemplates.id],
    }).onDelete('set null'), // SET NULL (template_id)
    index('projects_stage_idx').on(t.orgId, t.templateId, t.stageId),
    foreignKey({
      name: 'projects_stage_fk',
      columns: [t.orgId, t.stageId],
      foreignColumns: [templateStages.orgId, templateStages.id],
    }).onDelete('set null'), // SET NULL (stage_id)
    foreignKey({
      name: 'projects_owner_fk',
      columns: [t.orgId, t.ownerId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (owner_id)
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
