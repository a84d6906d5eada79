import { TRPCError } from '@trpc/server';
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { addDaysIso } from '../../../domain/periods';
import type { TProjectCreateValues, ZProjectStatus, ZProjectUpdate } from '../../../domain/projects';
import { STATUS_DISPLAY } from '../../../domain/status';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  members,
  projectMembers,
  projects,
  projectTemplates,
  services,
  systemLog,
  taskAssignees,
  tasks,
  templateTasks,
} from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { notify } from '../notifications';

import { audit, diff } from '../system-log';
import { firmToday, visibleProject } from './access';

export async function getProject(db: TExecutor, scope: TScope, projectId: string) {
  const { project, clientName, clientCode } = await visibleProject(db, scope, projectId);
  const [service, template, team, taskRows, activity, today] = await Promise.all([
    project.serviceId
      ? db
          .select({ id: services.id, name: services.name, frequency: services.frequency })
          .from(services)
          .where(and(eq(services.orgId, scope.orgId), eq(services.id, project.serviceId)))
          .then((r) => r[0] ?? null)
      : null,
    project.templateId
      ? db
          .select({ id: projectTemplates.id, name: projectTemplates.name })
          .from(projectTemplates)
          .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, project.templateId)))
          .then((r) => r[0] ?? null)
      : null,
    db
      .select({ id: members.id, name: memberName, email: members.email, picture: members.picture })
      .from(projectMembers)
      .innerJoin(
        members,
        and(eq(members.orgId, projectMembers.orgId), eq(members.id, projectMembers.memberId)),
      )
      .where(and(eq(projectMembers.orgId, scope.orgId), eq(projectMembers.projectId, projectId)))
      .orderBy(asc(members.firstName), asc(members.lastName)),
    db
      .select({
        id: tasks.id,
        title: tasks.title,
        status: tasks.status,
        priority: tasks.priority,
        dueDate: tasks.dueDate,
        completedDate: tasks.completedDate,
        forClient: tasks.forClient,
      })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.projectId, projectId)))
      .orderBy(asc(tasks.position), asc(tasks.dueDate), asc(tasks.id))
      .limit(500),
    db
      .select({
        id: systemLog.id,
        at: systemLog.at,
        action: systemLog.action,
        summary: systemLog.summary,
        actorKind: systemLog.actorKind,
        actorName: sql<
          string | null
        >`(select ${memberName} from ${members} where ${members.orgId} = ${systemLog.orgId} and ${members.id} = ${systemLog.actorMemberId})`,
      })
      .from(systemLog)
      .where(
        and(
          eq(systemLog.orgId, scope.orgId),
          eq(systemLog.recordType, 'project'),
          eq(systemLog.recordId, projectId),
        ),
      )
      .orderBy(desc(systemLog.at), desc(systemLog.id))
      .limit(50),
    firmToday(db, scope.orgId),
  ]);
  const assignees = taskRows.length
    ? await db
        .select({ taskId: taskAssignees.taskId, id: members.id, name: memberName })
        .from(taskAssignees)
        .innerJoin(
          members,
          and(eq(members.orgId, taskAssignees.orgId), eq(members.id, taskAssignees.memberId)),
        )
        .where(
          and(
            eq(taskAssignees.orgId, scope.orgId),
            inArray(
              taskAssignees.taskId,
              taskRows.map((t) => t.id),
            ),
          ),
        )
        .orderBy(asc(members.firstName))
    : [];
  const owner = project.ownerId
    ? ((
        await db
          .select({ id: members.id, name: memberName })
          .from(members)
          .where(and(eq(members.orgId, scope.orgId), eq(members.id, project.ownerId)))
      )[0] ?? null)
    : null;
  return {
    ...project,
    client: { id: project.clientId, name: clientName, code: clientCode },
    service,
    template,
    owner,
    members: team,
    tasks: taskRows.map((t) => ({
      ...t,
      assignees: assignees.filter((a) => a.taskId === t.id).map(({ id, name }) => ({ id, name })),
    })),
    progress: { done: taskRows.filter((t) => t.status === 'COMPLETED').length, total: taskRows.length },
    activity,
    today,
  };
}
export type TProjectDetail = Awaited<ReturnType<typeof getProject>>;

/** Pickers for the list's filters and the project form. */
export async function projectOptions(db: TExecutor, scope: TScope) {
  const [serviceRows, memberRows] = await Promise.all([
    db
      .select({ id: services.id, name: services.name, templateId: services.projectTemplateId })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), isNull(services.archivedAt)))
      .orderBy(asc(services.name)),
    db
      .select({ id: members.id, name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
      .orderBy(asc(members.firstName), asc(members.lastName)),
  ]);
  return { services: serviceRows, members: memberRows };
}

/** Clients matching a few letters, for a picker: a firm may have tens of thousands. */
export async function searchClients(
  db: TExecutor,
  scope: TScope,
  input: { search?: string; clientId?: string },
) {
  const term = input.search?.trim();
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(
      and(
        eq(clients.orgId, scope.orgId),
        isNull(clients.archivedAt),
        clientVisibility(scope),
        input.clientId ? eq(clients.id, input.clientId) : undefined,
        term ? or(ilike(clients.name, escapeLike(term)), ilike(clients.code, escapeLike(term))) : undefined,
      ),
    )
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(20);
}

async function activeMembers(tx: TExecutor, orgId: string, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (!unique.length) return [];
  const found = await tx
    .select({ id: members.id, roleId: members.roleId })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, unique), eq(members.status, 'active')));
  if (found.length !== unique.length) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'memberIds: choose active members of your firm' });
  }
  return found;
}

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
        title: b.title,
        description: b.description,
        dueDate: project.dueDate ? addDaysIso(project.dueDate, b.dueOffsetDays) : null,
        tags: b.tags,
        checklist: b.checklist.map((text) => ({ id: crypto.randomUUID(), text, done: false })),
        forClient: b.forClient,
        position: b.position,
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
    if (input.templateId) {
      const [template] = await tx
        .select({ id: projectTemplates.id })
        .from(projectTemplates)
        .where(and(eq(projectTemplates.orgId, scope.orgId), eq(projectTemplates.id, input.templateId)))
        .limit(1);
      if (!template) throw new TRPCError({ code: 'NOT_FOUND', message: 'Template not found' });
    }
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
      summary: `Created the project ${input.name} for ${client.name}${taskCount ? ` with ${taskCount} tasks` : ''}`,
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
    };
    const changes = diff(project as unknown as Record<string, unknown>, next);
    if (!changes) return { id: project.id };
    await tx
      .update(projects)
      .set({ ...next, updatedAt: new Date() })
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
      summary: `Updated the project ${input.name}: ${Object.keys(changes).join(', ')}`,
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

export async function addProjectMember(
  db: TDb,
  scope: TScope,
  input: { projectId: string; memberId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, input.projectId, true);
    await activeMembers(tx, scope.orgId, [input.memberId]);
    const added = await tx
      .insert(projectMembers)
      .values({ orgId: scope.orgId, projectId: project.id, memberId: input.memberId })
      .onConflictDoNothing()
      .returning({ memberId: projectMembers.memberId });
    if (!added.length) return { id: project.id };
    await audit(tx, actorOf(scope, meta), {
      action: 'project.member.add',
      recordType: 'project',
      recordId: project.id,
      summary: `Added a member to ${project.name}`,
      changes: { memberId: { from: null, to: input.memberId } },
    });
    if (input.memberId !== scope.memberId) {
      await notify(tx, {
        orgId: scope.orgId,
        memberIds: [input.memberId],
        kind: 'task.assigned',
        title: `You are on the project ${project.name}`,
        link: `/projects/${project.id}`,
      });
    }
    return { id: project.id };
  });
}

export async function removeProjectMember(
  db: TDb,
  scope: TScope,
  input: { projectId: string; memberId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, input.projectId, true);
    if (project.ownerId === input.memberId) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'The owner stays on the project: choose another owner first',
      });
    }
    const removed = await tx
      .delete(projectMembers)
      .where(
        and(
          eq(projectMembers.orgId, scope.orgId),
          eq(projectMembers.projectId, project.id),
          eq(projectMembers.memberId, input.memberId),
        ),
      )
      .returning({ memberId: projectMembers.memberId });
    if (!removed.length) return { id: project.id };
    await audit(tx, actorOf(scope, meta), {
      action: 'project.member.remove',
      recordType: 'project',
      recordId: project.id,
      summary: `Removed a member from ${project.name}`,
      changes: { memberId: { from: input.memberId, to: null } },
    });
    return { id: project.id };
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
