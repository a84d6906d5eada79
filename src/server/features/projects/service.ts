import { TRPCError } from '@trpc/server';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { budgetChange, changedFields } from '../../../domain/budgets';
import { addDays } from '../../../domain/days';
import type { TProjectCreateValues, ZProjectStatus, ZProjectUpdate } from '../../../domain/projects';
import { STATUS_DISPLAY } from '../../../domain/status';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  projectMembers,
  projects,
  projectTemplates,
  services,
  taskAssignees,
  tasks,
  templateStages,
  templateTasks,
} from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { billProjectFee } from '../billing';
import { visibleClient } from '../clients';
import { notify } from '../notifications';
import { audit, diff } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import { visibleProject } from './access';
import { levelForBudget } from './budgets';
import { activeMembers } from './members';

/** Tasks from a template for a project made by hand: offsets count from the project's due date. */
async function tasksFromTemplate(
  tx: TExecutor,
  orgId: string,
  project: { id: string; clientId: string; dueDate: string | null },
  templateId: string,
  team: { id: string; roleId: string }[],
) {
  const blueprints = await tx
    .select()
    .from(templateTasks)
    .where(and(eq(templateTasks.orgId, orgId), eq(templateTasks.templateId, templateId)))
    .orderBy(asc(templateTasks.position));
  if (!blueprints.length) return 0;
  const created = await tx
    .insert(tasks)
    .values(
      blueprints.map((b) => ({
        orgId,
        projectId: project.id,
        clientId: project.clientId,
        templateTaskId: b.id,
        stageId: b.stageId,
        title: b.title,
        description: b.description,
        dueDate: project.dueDate ? addDays(project.dueDate, b.dueOffsetDays) : null,
        tags: b.tags,
        checklist: b.checklist.map((text) => ({ id: crypto.randomUUID(), text, done: false })),
        forClient: b.forClient,
        position: b.position,
        budgetMinutes: b.budgetMinutes,
      })),
    )
    .returning({ id: tasks.id, templateTaskId: tasks.templateTaskId, dueDate: tasks.dueDate });
  const rows = created.flatMap((t) => {
    const b = blueprints.find((x) => x.id === t.templateTaskId);
    const byRole = b?.assigneeRoleId ? team.filter((m) => m.roleId === b.assigneeRoleId) : [];
    const who = b?.assigneeMemberId ? [b.assigneeMemberId] : (byRole.length ? byRole : team).map((m) => m.id);
    return who.map((memberId) => ({ orgId, taskId: t.id, memberId, dueDate: t.dueDate }));
  });
  if (rows.length) await tx.insert(taskAssignees).values(rows).onConflictDoNothing();
  return created.length;
}

export async function createProject(db: TDb, scope: TScope, input: TProjectCreateValues, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    if (input.serviceId) {
      const [service] = await tx
        .select({ id: services.id })
        .from(services)
        .where(and(eq(services.orgId, scope.orgId), eq(services.id, input.serviceId)))
        .limit(1);
      if (!service) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
    }
    let templateBudget: number | null = null;
    if (input.templateId) {
      const [template] = await tx
        .select({ id: projectTemplates.id, budgetMinutes: projectTemplates.budgetMinutes })
        .from(projectTemplates)
        .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, input.templateId)))
        .limit(1);
      if (!template) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
      templateBudget = template.budgetMinutes;
    }
    const budgetMinutes = input.budgetMinutes ?? templateBudget;
    const memberIds = [...new Set([...(input.ownerId ? [input.ownerId] : []), ...input.memberIds])];
    const team = await activeMembers(tx, scope.orgId, memberIds);
    const [row] = await tx
      .insert(projects)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        serviceId: input.serviceId,
        templateId: input.templateId,
        name: input.name,
        description: input.description,
        startDate: input.startDate,
        dueDate: input.dueDate,
        ownerId: input.ownerId,
        budgetMinutes,
        stageId: await firstStageId(tx, scope.orgId, input.templateId),
      })
      .returning({ id: projects.id });
    if (!row) throw new Error('project not created');
    if (memberIds.length) {
      await tx
        .insert(projectMembers)
        .values(memberIds.map((memberId) => ({ orgId: scope.orgId, projectId: row.id, memberId })));
    }
    const taskCount = input.templateId
      ? await tasksFromTemplate(
          tx,
          scope.orgId,
          { id: row.id, clientId: client.id, dueDate: input.dueDate },
          input.templateId,
          team,
        )
      : 0;
    await audit(tx, actorOf(scope, meta), {
      action: 'project.create',
      recordType: 'project',
      recordId: row.id,
      summary: `Created the project ${input.name} for ${client.name}${taskCount ? ` with ${taskCount} tasks` : ''}${
        budgetMinutes ? `, ${budgetChange({ from: null, to: budgetMinutes })}` : ''
      }`,
    });
    await emitAutomationEvent(tx, {
      orgId: scope.orgId,
      kind: 'project.created',
      projectId: row.id,
      clientId: client.id,
    });
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: memberIds.filter((id) => id !== scope.memberId),
      kind: 'task.assigned',
      title: `You are on the project ${input.name}`,
      body: `For ${client.name}`,
      link: `/projects/${row.id}`,
    });
    return { id: row.id };
  });
}

export async function updateProject(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProjectUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, input.projectId, true);
    if (input.ownerId) await activeMembers(tx, scope.orgId, [input.ownerId]);
    const next = {
      name: input.name,
      description: input.description,
      startDate: input.startDate,
      dueDate: input.dueDate,
      ownerId: input.ownerId,
      budgetMinutes: input.budgetMinutes,
    };
    const changes = diff(project as unknown as Record<string, unknown>, next);
    if (!changes) return { id: project.id };
    // A new budget starts from what the logged time has reached, so only a later crossing notifies.
    const budgetNotified = changes.budgetMinutes
      ? await levelForBudget(tx, scope.orgId, { projectId: project.id }, input.budgetMinutes)
      : project.budgetNotified;
    await tx
      .update(projects)
      .set({ ...next, budgetNotified, updatedAt: new Date() })
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, project.id)));
    if (input.ownerId && input.ownerId !== project.ownerId) {
      await tx
        .insert(projectMembers)
        .values({ orgId: scope.orgId, projectId: project.id, memberId: input.ownerId })
        .onConflictDoNothing();
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'project.update',
      recordType: 'project',
      recordId: project.id,
      summary: `Updated the project ${input.name}: ${changedFields(changes)}`,
      changes,
    });
    return { id: project.id };
  });
}

/** Any stored status may follow any other; COMPLETED stamps the completed date, leaving it clears it. */
export async function setProjectStatus(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZProjectStatus>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project, clientName } = await visibleProject(tx, scope, input.projectId, true);
    if (project.status === input.status)
      return { id: project.id, status: project.status, completedDate: project.completedDate };
    const completedDate = input.status === 'COMPLETED' ? new Date() : null;
    await tx
      .update(projects)
      .set({ status: input.status, completedDate, updatedAt: new Date() })
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, project.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'project.status',
      recordType: 'project',
      recordId: project.id,
      summary: `Moved ${project.name} from ${STATUS_DISPLAY[project.status].label} to ${STATUS_DISPLAY[input.status].label}`,
      changes: {
        status: { from: project.status, to: input.status },
        completedDate: { from: project.completedDate, to: completedDate },
      },
    });
    // A fee billed "when the period's project is completed" is billed now (once, whoever completes).
    if (input.status === 'COMPLETED') await billProjectFee(tx, scope.orgId, project.id);
    if (input.status === 'COMPLETED')
      await emitWebhookEvent(tx, scope.orgId, 'project.completed', {
        id: project.id,
        name: project.name,
        clientId: project.clientId,
        completedDate,
      });
    if (input.status === 'IN_REVIEW' && project.ownerId && project.ownerId !== scope.memberId) {
      await notify(tx, {
        orgId: scope.orgId,
        memberIds: [project.ownerId],
        kind: 'task.assigned',
        title: `${project.name} is ready for review`,
        body: `For ${clientName}`,
        link: `/projects/${project.id}`,
      });
    }
    return { id: project.id, status: input.status, completedDate };
  });
}

export async function setProjectArchived(
  db: TDb,
  scope: TScope,
  projectId: string,
  archived: boolean,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, projectId, true);
    if (Boolean(project.archivedAt) === archived) return { id: project.id };
    const archivedAt = archived ? new Date() : null;
    await tx
      .update(projects)
      .set({ archivedAt, updatedAt: new Date() })
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, project.id)));
    await audit(tx, actorOf(scope, meta), {
      action: archived ? 'project.archive' : 'project.restore',
      recordType: 'project',
      recordId: project.id,
      summary: `${archived ? 'Archived' : 'Restored'} the project ${project.name}`,
    });
    return { id: project.id };
  });
}

/**
 * Deleting removes the project and its tasks. A generated project's period stays free, so the
 * next recurring run would create it again: archive it instead to keep it gone.
 */
export async function deleteProject(db: TDb, scope: TScope, projectId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { project, clientName } = await visibleProject(tx, scope, projectId, true);
    await tx.delete(projects).where(and(eq(projects.orgId, scope.orgId), eq(projects.id, project.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'project.delete',
      recordType: 'project',
      recordId: project.id,
      summary: `Deleted the project ${project.name} of ${clientName}`,
    });
    return { id: project.id };
  });
}

/**
 * The first of a template's stages (issue 41), where a project made from it starts. Read here, not
 * through automations: automations act on projects, so projects may not import them (a cycle).
 */
async function firstStageId(db: TExecutor, orgId: string, templateId: string | null) {
  if (!templateId) return null;
  const [row] = await db
    .select({ id: templateStages.id })
    .from(templateStages)
    .where(and(eq(templateStages.orgId, orgId), eq(templateStages.templateId, templateId)))
    .orderBy(asc(templateStages.position), asc(templateStages.id))
    .limit(1);
  return row?.id ?? null;
}
