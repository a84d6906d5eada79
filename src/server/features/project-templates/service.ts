import { TRPCError } from '@trpc/server';
import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { budgetChange } from '../../../domain/budgets';
import type {
  TBlueprintValues,
  ZBlueprintCreate,
  ZBlueprintMove,
  ZBlueprintUpdate,
  ZTemplateInput,
} from '../../../domain/project-templates';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { members, projectTemplates, roles, services, templateStages, templateTasks } from '../../db/schema';
import { memberName } from '../../db/sql';
import { fieldConflict } from '../../trpc/field-errors';

import { audit, diff } from '../system-log';

type TTemplateValues = z.output<typeof ZTemplateInput>;

const nameTaken = (name: string) => fieldConflict('name', `Another template is already called ${name}`);

async function withNameCheck<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
}

export async function listTemplates(db: TExecutor, scope: TScope, input: { archived: boolean }) {
  const tasksCount = sql<number>`(select count(*)::int from template_tasks tt
    where tt.org_id = "project_templates"."org_id" and tt.template_id = "project_templates"."id")`;
  const servicesCount = sql<number>`(select count(*)::int from services s
    where s.org_id = "project_templates"."org_id" and s.project_template_id = "project_templates"."id"
    and s.archived_at is null)`;
  return db
    .select({
      id: projectTemplates.id,
      name: projectTemplates.name,
      description: projectTemplates.description,
      archivedAt: projectTemplates.archivedAt,
      updatedAt: projectTemplates.updatedAt,
      taskCount: tasksCount,
      serviceCount: servicesCount,
    })
    .from(projectTemplates)
    .where(
      and(
        eq(projectTemplates.orgId, scope.orgId),
        input.archived ? isNotNull(projectTemplates.archivedAt) : isNull(projectTemplates.archivedAt),
      ),
    )
    .orderBy(asc(projectTemplates.name), asc(projectTemplates.id));
}

/** Names for pickers (the service form, a new project): live templates only. */
export async function templateOptions(db: TExecutor, scope: TScope) {
  return db
    .select({ id: projectTemplates.id, name: projectTemplates.name })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, scope.orgId), isNull(projectTemplates.archivedAt)))
    .orderBy(asc(projectTemplates.name));
}

async function templateRow(db: TExecutor, orgId: string, templateId: string, lock = false) {
  const query = db
    .select()
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, orgId), eq(projectTemplates.id, templateId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
  return row;
}

export async function getTemplate(db: TExecutor, scope: TScope, templateId: string) {
  const template = await templateRow(db, scope.orgId, templateId);
  const [blueprints, linked, roleOptions, memberOptions, stageOptions] = await Promise.all([
    db
      .select({
        id: templateTasks.id,
        position: templateTasks.position,
        title: templateTasks.title,
        description: templateTasks.description,
        dueOffsetDays: templateTasks.dueOffsetDays,
        assigneeRoleId: templateTasks.assigneeRoleId,
        assigneeMemberId: templateTasks.assigneeMemberId,
        checklist: templateTasks.checklist,
        forClient: templateTasks.forClient,
        tags: templateTasks.tags,
        budgetMinutes: templateTasks.budgetMinutes,
        stageId: templateTasks.stageId,
      })
      .from(templateTasks)
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.templateId, templateId)))
      .orderBy(asc(templateTasks.position), asc(templateTasks.id)),
    db
      .select({ id: services.id, name: services.name, code: services.code })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), eq(services.projectTemplateId, templateId)))
      .orderBy(asc(services.name)),
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(eq(roles.orgId, scope.orgId))
      .orderBy(asc(roles.name)),
    db
      .select({ id: members.id, name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
      .orderBy(asc(members.firstName), asc(members.lastName)),
    db
      .select({ id: templateStages.id, name: templateStages.name })
      .from(templateStages)
      .where(and(eq(templateStages.orgId, scope.orgId), eq(templateStages.templateId, templateId)))
      .orderBy(asc(templateStages.position)),
  ]);
  return {
    ...template,
    blueprints,
    services: linked,
    roles: roleOptions,
    members: memberOptions,
    stages: stageOptions,
  };
}
export type TTemplateDetail = Awaited<ReturnType<typeof getTemplate>>;

export async function createTemplate(db: TDb, scope: TScope, input: TTemplateValues, meta: TRequestMeta) {
  return withNameCheck(input.name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projectTemplates)
        .values({ orgId: scope.orgId, ...input })
        .returning({ id: projectTemplates.id });
      if (!row) throw new Error('template not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'projectTemplate.create',
        recordType: 'projectTemplate',
        recordId: row.id,
        summary: `Created the project template ${input.name}`,
      });
      return { id: row.id };
    }),
  );
}

export async function updateTemplate(
  db: TDb,
  scope: TScope,
  templateId: string,
  input: TTemplateValues,
  meta: TRequestMeta,
) {
  return withNameCheck(input.name, () =>
    db.transaction(async (tx) => {
      const before = await templateRow(tx, scope.orgId, templateId, true);
      const changes = diff(before as unknown as Record<string, unknown>, input);
      if (!changes) return { id: templateId };
      await tx
        .update(projectTemplates)
        .set({ ...input, updatedAt: new Date() })
        .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, templateId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'projectTemplate.update',
        recordType: 'projectTemplate',
        recordId: templateId,
        summary: `Updated the project template ${input.name}${changes.budgetMinutes ? `: ${budgetChange(changes.budgetMinutes)}` : ''}`,
        changes,
      });
      return { id: templateId };
    }),
  );
}

export async function setTemplateArchived(
  db: TDb,
  scope: TScope,
  templateId: string,
  archived: boolean,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await templateRow(tx, scope.orgId, templateId, true);
    if (Boolean(before.archivedAt) === archived) return { id: templateId };
    const archivedAt = archived ? new Date() : null;
    await tx
      .update(projectTemplates)
      .set({ archivedAt, updatedAt: new Date() })
      .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, templateId)));
    await audit(tx, actorOf(scope, meta), {
      action: archived ? 'projectTemplate.archive' : 'projectTemplate.restore',
      recordType: 'projectTemplate',
      recordId: templateId,
      summary: `${archived ? 'Archived' : 'Restored'} the project template ${before.name}`,
    });
    return { id: templateId };
  });
}

/** Deleting unlinks the services that used it (their engagements stop generating projects). */
export async function deleteTemplate(db: TDb, scope: TScope, templateId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await templateRow(tx, scope.orgId, templateId, true);
    await tx
      .update(services)
      .set({ projectTemplateId: null, updatedAt: new Date() })
      .where(and(eq(services.orgId, scope.orgId), eq(services.projectTemplateId, templateId)));
    await tx
      .delete(projectTemplates)
      .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, templateId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.delete',
      recordType: 'projectTemplate',
      recordId: templateId,
      summary: `Deleted the project template ${before.name}`,
    });
    return { id: templateId };
  });
}

/** The blueprint's assignee columns, with the role or member checked to be this firm's. */
async function assigneeColumns(tx: TExecutor, orgId: string, input: TBlueprintValues) {
  if (input.assigneeKind === 'role' && input.assigneeRoleId) {
    const [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.orgId, orgId), eq(roles.id, input.assigneeRoleId)))
      .limit(1);
    if (!role)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'assigneeRoleId: choose one of your firm’s roles',
      });
    return { assigneeRoleId: role.id, assigneeMemberId: null };
  }
  if (input.assigneeKind === 'member' && input.assigneeMemberId) {
    const [member] = await tx
      .select({ id: members.id })
      .from(members)
      .where(
        and(eq(members.orgId, orgId), eq(members.id, input.assigneeMemberId), eq(members.status, 'active')),
      )
      .limit(1);
    if (!member) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'assigneeMemberId: choose an active member of your firm',
      });
    }
    return { assigneeRoleId: null, assigneeMemberId: member.id };
  }
  return { assigneeRoleId: null, assigneeMemberId: null };
}

/** The blueprint's stage, checked to be one of its own template's (null: none). */
async function stageColumn(tx: TExecutor, orgId: string, templateId: string, stageId: string | null) {
  if (!stageId) return { stageId: null };
  const [stage] = await tx
    .select({ id: templateStages.id })
    .from(templateStages)
    .where(
      and(
        eq(templateStages.orgId, orgId),
        eq(templateStages.templateId, templateId),
        eq(templateStages.id, stageId),
      ),
    )
    .limit(1);
  if (!stage)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'stageId: choose one of this template’s stages' });
  return { stageId: stage.id };
}

function blueprintColumns(input: TBlueprintValues) {
  return {
    title: input.title,
    description: input.description,
    dueOffsetDays: input.dueOffsetDays,
    checklist: input.checklist,
    forClient: input.forClient,
    tags: [...new Set(input.tags)],
    budgetMinutes: input.budgetMinutes,
  };
}

async function touch(tx: TExecutor, orgId: string, templateId: string) {
  await tx
    .update(projectTemplates)
    .set({ updatedAt: new Date() })
    .where(and(eq(projectTemplates.orgId, orgId), eq(projectTemplates.id, templateId)));
}

export async function addBlueprint(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZBlueprintCreate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    // Locking the template serialises concurrent additions, so positions stay distinct.
    const template = await templateRow(tx, scope.orgId, input.templateId, true);
    const [{ next } = { next: 1 }] = await tx
      .select({ next: sql<number>`coalesce(max(${templateTasks.position}), 0)::int + 1` })
      .from(templateTasks)
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.templateId, template.id)));
    const [row] = await tx
      .insert(templateTasks)
      .values({
        orgId: scope.orgId,
        templateId: template.id,
        position: next,
        ...blueprintColumns(input),
        ...(await assigneeColumns(tx, scope.orgId, input)),
        ...(await stageColumn(tx, scope.orgId, template.id, input.stageId)),
      })
      .returning({ id: templateTasks.id });
    if (!row) throw new Error('blueprint not created');
    await touch(tx, scope.orgId, template.id);
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.task.add',
      recordType: 'projectTemplate',
      recordId: template.id,
      summary: `Added the task ${input.title} to ${template.name}`,
    });
    return { id: row.id };
  });
}

async function blueprintRow(tx: TExecutor, orgId: string, blueprintId: string) {
  const [row] = await tx
    .select({ blueprint: templateTasks, templateName: projectTemplates.name })
    .from(templateTasks)
    .innerJoin(
      projectTemplates,
      and(eq(projectTemplates.orgId, templateTasks.orgId), eq(projectTemplates.id, templateTasks.templateId)),
    )
    .where(and(eq(templateTasks.orgId, orgId), eq(templateTasks.id, blueprintId)))
    .limit(1)
    .for('update', { of: projectTemplates });
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template task not found' });
  return row;
}

export async function updateBlueprint(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZBlueprintUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { blueprint, templateName } = await blueprintRow(tx, scope.orgId, input.blueprintId);
    const next = {
      ...blueprintColumns(input),
      ...(await assigneeColumns(tx, scope.orgId, input)),
      ...(await stageColumn(tx, scope.orgId, blueprint.templateId, input.stageId)),
    };
    const changes = diff(blueprint as unknown as Record<string, unknown>, next);
    if (!changes) return { id: blueprint.id };
    await tx
      .update(templateTasks)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.id, blueprint.id)));
    await touch(tx, scope.orgId, blueprint.templateId);
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.task.update',
      recordType: 'projectTemplate',
      recordId: blueprint.templateId,
      summary: `Updated the task ${input.title} of ${templateName}${changes.budgetMinutes ? `: ${budgetChange(changes.budgetMinutes)}` : ''}`,
      changes,
    });
    return { id: blueprint.id };
  });
}

export async function removeBlueprint(db: TDb, scope: TScope, blueprintId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { blueprint, templateName } = await blueprintRow(tx, scope.orgId, blueprintId);
    await tx
      .delete(templateTasks)
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.id, blueprint.id)));
    await touch(tx, scope.orgId, blueprint.templateId);
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.task.remove',
      recordType: 'projectTemplate',
      recordId: blueprint.templateId,
      summary: `Removed the task ${blueprint.title} from ${templateName}`,
    });
    return { id: blueprint.id };
  });
}

/** Swaps the blueprint with its neighbour above or below; at either end nothing moves. */
export async function moveBlueprint(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZBlueprintMove>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { blueprint, templateName } = await blueprintRow(tx, scope.orgId, input.blueprintId);
    const up = input.direction === 'up';
    const [neighbour] = await tx
      .select({ id: templateTasks.id, position: templateTasks.position })
      .from(templateTasks)
      .where(
        and(
          eq(templateTasks.orgId, scope.orgId),
          eq(templateTasks.templateId, blueprint.templateId),
          up
            ? lt(templateTasks.position, blueprint.position)
            : gt(templateTasks.position, blueprint.position),
        ),
      )
      .orderBy(up ? sql`${templateTasks.position} desc` : asc(templateTasks.position))
      .limit(1);
    if (!neighbour) return { id: blueprint.id, moved: false };
    await tx
      .update(templateTasks)
      .set({ position: neighbour.position })
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.id, blueprint.id)));
    await tx
      .update(templateTasks)
      .set({ position: blueprint.position })
      .where(and(eq(templateTasks.orgId, scope.orgId), eq(templateTasks.id, neighbour.id)));
    await touch(tx, scope.orgId, blueprint.templateId);
    await audit(tx, actorOf(scope, meta), {
      action: 'projectTemplate.task.move',
      recordType: 'projectTemplate',
      recordId: blueprint.templateId,
      summary: `Moved the task ${blueprint.title} ${input.direction} in ${templateName}`,
    });
    return { id: blueprint.id, moved: true };
  });
}
