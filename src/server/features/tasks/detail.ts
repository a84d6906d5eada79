import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import { REQUIRE_CHECKLIST_SETTING, type TTaskSettings, taskDisplayStatus } from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, orgs, projects, taskAssignees, tasks } from '../../db/schema';
import { memberName, rowsOf } from '../../db/sql';
import { visibleClient } from '../clients';
import { taskBudget } from '../projects';
import { audit } from '../system-log';
import { firmOf, visibleTask } from './access';

/** Everything the drawer shows but the comments (their own query, refreshed on their own). */
export async function getTask(db: TExecutor, scope: TScope, taskId: string) {
  const task = await visibleTask(db, scope, taskId);
  const [firm, assignees, client, project, people, budget] = await Promise.all([
    firmOf(db, scope.orgId),
    db
      .select({ id: members.id, name: memberName })
      .from(taskAssignees)
      .innerJoin(members, and(eq(members.orgId, taskAssignees.orgId), eq(members.id, taskAssignees.memberId)))
      .where(and(eq(taskAssignees.orgId, scope.orgId), eq(taskAssignees.taskId, taskId)))
      .orderBy(asc(members.firstName), asc(members.lastName)),
    task.clientId
      ? db
          .select({ id: clients.id, name: clients.name, code: clients.code })
          .from(clients)
          .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, task.clientId)))
          .then((r) => r[0] ?? null)
      : null,
    task.projectId
      ? db
          .select({ id: projects.id, name: projects.name })
          .from(projects)
          .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, task.projectId)))
          .then((r) => r[0] ?? null)
      : null,
    task.reviewerId || task.createdBy
      ? db
          .select({ id: members.id, name: memberName })
          .from(members)
          .where(
            and(
              eq(members.orgId, scope.orgId),
              inArray(
                members.id,
                [task.reviewerId, task.createdBy].filter((v): v is string => Boolean(v)),
              ),
            ),
          )
      : [],
    taskBudget(db, scope.orgId, task),
  ]);
  const today = todayIn(firm.timeZone);
  const person = (id: string | null) => (id ? (people.find((p) => p.id === id) ?? null) : null);
  return {
    id: task.id,
    title: task.title,
    description: task.description,
    status: task.status,
    displayStatus: taskDisplayStatus(task, today),
    priority: task.priority,
    dueDate: task.dueDate,
    completedDate: task.completedDate,
    tags: task.tags,
    checklist: task.checklist,
    forClient: task.forClient,
    budget,
    client,
    project,
    assignees,
    reviewer: person(task.reviewerId),
    createdBy: person(task.createdBy),
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    today,
    settings: firm.settings,
  };
}
export type TTaskDetail = Awaited<ReturnType<typeof getTask>>;

/** Pickers: the firm's active members, tags in recent use, and the firm's task settings. */
export async function taskOptions(db: TExecutor, scope: TScope) {
  const [people, tagRows, firm] = await Promise.all([
    db
      .select({ id: members.id, name: memberName, email: members.email })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
      .orderBy(asc(members.firstName), asc(members.lastName))
      .limit(500),
    // Tags of the latest few thousand tasks (by due date, on its index): a suggestion list, so a
    // scan of every task is not worth it.
    db.execute<{ tag: string }>(
      sql`select distinct unnest(t.tags) as tag from (select ${tasks.tags} as tags from ${tasks}
        where ${tasks.orgId} = ${scope.orgId} order by ${tasks.dueDate} desc nulls last limit 2000) t
        order by tag limit 200`,
    ),
    firmOf(db, scope.orgId),
  ]);
  const tags = rowsOf<{ tag: string }>(tagRows).map((r) => r.tag);
  return { members: people, tags, settings: firm.settings };
}

/** A client's open projects, newest period first, for the task form's project picker. */
export async function projectOptions(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  return db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.orgId, scope.orgId), eq(projects.clientId, clientId), isNull(projects.archivedAt)))
    .orderBy(desc(projects.dueDate), asc(projects.name))
    .limit(100);
}

export async function updateTaskSettings(db: TDb, scope: TScope, input: TTaskSettings, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await firmOf(tx, scope.orgId);
    if (before.settings.requireChecklistToComplete === input.requireChecklistToComplete) return input;
    await tx
      .update(orgs)
      .set({
        settings: sql`${orgs.settings} || jsonb_build_object(${REQUIRE_CHECKLIST_SETTING}::text, ${input.requireChecklistToComplete}::boolean)`,
        updatedAt: new Date(),
      })
      .where(eq(orgs.id, scope.orgId));
    await audit(tx, actorOf(scope, meta), {
      action: 'org.settings.tasks',
      recordType: 'org',
      recordId: scope.orgId,
      summary: input.requireChecklistToComplete
        ? 'Tasks now need their checklist done to be completed'
        : 'Tasks can be completed with checklist items open',
      changes: {
        requireChecklistToComplete: {
          from: before.settings.requireChecklistToComplete,
          to: input.requireChecklistToComplete,
        },
      },
    });
    return input;
  });
}
