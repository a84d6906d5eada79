import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import {
  members,
  projectMembers,
  projectTemplates,
  services,
  systemLog,
  taskAssignees,
  tasks,
} from '../../db/schema';
import { memberName } from '../../db/sql';
import { firmToday, visibleProject } from './access';
import { projectBudget } from './budgets';

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
        budgetMinutes: tasks.budgetMinutes,
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
  const budget = await projectBudget(db, scope.orgId, project, taskRows);
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
    budget,
    today,
  };
}
export type TProjectDetail = Awaited<ReturnType<typeof getProject>>;
