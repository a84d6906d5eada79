import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { budgetCrossing, type TBudgetLevel } from '../../../domain/budgets';
import { formatMinutes } from '../../../domain/timesheets';
import type { TExecutor } from '../../db/client';
import { projectMembers, projects, taskAssignees, tasks } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { notify } from '../notifications';

// Budget against actual for projects and tasks. Actual is every logged minute, whatever the entry's
// status: a rejected week is sent back to be corrected, not thrown away, and counting every status
// means only an entry's own write (never an approval) moves the figure the notices follow.

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
const unique = (ids: readonly (string | null | undefined)[]) => [
  ...new Set(ids.filter((id): id is string => Boolean(id))),
];

/**
 * Minutes logged on each project: entries recorded against it, and entries of its tasks (a task
 * moved into the project brings its time). An entry counts once per project either way.
 */
export async function projectActuals(tx: TExecutor, orgId: string, projectIds: readonly string[]) {
  const actual = new Map<string, number>(projectIds.map((id) => [id, 0]));
  if (!projectIds.length) return actual;
  const ids = uuidArray(projectIds);
  const result = await tx.execute(sql`
    select x.project_id, sum(x.minutes)::int as minutes from (
      select e.id, e.project_id, e.minutes from timesheet_entries e
      where e.org_id = ${orgId} and e.project_id = any(${ids}::uuid[])
      union
      select e.id, t.project_id, e.minutes from tasks t
      join timesheet_entries e on e.org_id = t.org_id and e.task_id = t.id
      where t.org_id = ${orgId} and t.project_id = any(${ids}::uuid[])
    ) x group by x.project_id`);
  for (const r of rowsOf<{ project_id: string; minutes: number }>(result))
    actual.set(r.project_id, Number(r.minutes));
  return actual;
}

/** Minutes logged on each task. */
export async function taskActuals(tx: TExecutor, orgId: string, taskIds: readonly string[]) {
  const actual = new Map<string, number>(taskIds.map((id) => [id, 0]));
  if (!taskIds.length) return actual;
  const result = await tx.execute(sql`
    select e.task_id, sum(e.minutes)::int as minutes from timesheet_entries e
    where e.org_id = ${orgId} and e.task_id = any(${uuidArray(taskIds)}::uuid[])
    group by e.task_id`);
  for (const r of rowsOf<{ task_id: string; minutes: number }>(result))
    actual.set(r.task_id, Number(r.minutes));
  return actual;
}

/** The project page's figures: its budget and actual, and each task with a budget or time. */
export async function projectBudget(
  db: TExecutor,
  orgId: string,
  project: { id: string; budgetMinutes: number | null },
  projectTasks: readonly { id: string; title: string; budgetMinutes: number | null }[],
) {
  const [projectActual, perTask] = await Promise.all([
    projectActuals(db, orgId, [project.id]),
    taskActuals(
      db,
      orgId,
      projectTasks.map((t) => t.id),
    ),
  ]);
  return {
    budgetMinutes: project.budgetMinutes,
    actualMinutes: projectActual.get(project.id) ?? 0,
    tasks: projectTasks
      .map((t) => ({
        id: t.id,
        title: t.title,
        budgetMinutes: t.budgetMinutes,
        actualMinutes: perTask.get(t.id) ?? 0,
      }))
      .filter((t) => t.budgetMinutes !== null || t.actualMinutes > 0),
  };
}

/** One task's budget and actual, for the task drawer. */
export async function taskBudget(
  db: TExecutor,
  orgId: string,
  task: { id: string; budgetMinutes: number | null },
) {
  const actual = await taskActuals(db, orgId, [task.id]);
  return { budgetMinutes: task.budgetMinutes, actualMinutes: actual.get(task.id) ?? 0 };
}

/**
 * The notice level a budget stands at after the budget itself changed: what the logged time has
 * already reached, announced or not (the person changing it sees the figures), so the next crossing
 * by logged time is the one that notifies.
 */
export async function levelForBudget(
  tx: TExecutor,
  orgId: string,
  ref: { projectId: string } | { taskId: string },
  budgetMinutes: number | null,
): Promise<TBudgetLevel> {
  const actual =
    'projectId' in ref
      ? (await projectActuals(tx, orgId, [ref.projectId])).get(ref.projectId)
      : (await taskActuals(tx, orgId, [ref.taskId])).get(ref.taskId);
  return budgetCrossing(0, actual ?? 0, budgetMinutes).level;
}

type TNotice = { level: TBudgetLevel; actual: number; budget: number; name: string; link: string };

function noticeText(n: TNotice) {
  const figures = `${formatMinutes(n.actual)} logged of a ${formatMinutes(n.budget)} budget`;
  return n.level === 100
    ? { title: `${n.name} has used its whole budget`.slice(0, 200), body: figures }
    : { title: `${n.name} has used ${n.level}% of its budget`.slice(0, 200), body: figures };
}

/** Writes each changed level in one statement per table. */
async function storeLevels(
  tx: TExecutor,
  table: typeof projects | typeof tasks,
  orgId: string,
  changed: { id: string; level: number }[],
) {
  if (!changed.length) return;
  await tx.execute(sql`
    update ${table} set budget_notified = v.level
    from unnest(${uuidArray(changed.map((c) => c.id))}::uuid[], ${`{${changed.map((c) => c.level).join(',')}}`}::int[]) as v(id, level)
    where ${table.orgId} = ${orgId} and ${table.id} = v.id`);
}

/**
 * Called by every write of logged time, inside its transaction, with the projects and tasks the
 * change touched (before and after). Projects and tasks with a budget are locked (projects first,
 * as deleting a project does), their actuals read in one statement each, and each one whose logged
 * time reached 80 % or 100 % of its budget since the last notice notifies, once: a project its
 * owner and members, a task its assignees and its project's owner. The lock is NO KEY UPDATE so it
 * queues behind, but does not deadlock with, the KEY SHARE lock an entry's foreign key takes.
 */
export async function afterTimeLogged(
  tx: TExecutor,
  orgId: string,
  touched: {
    projectIds: readonly (string | null | undefined)[];
    taskIds: readonly (string | null | undefined)[];
  },
) {
  const taskIds = unique(touched.taskIds);
  const taskProjects = taskIds.length
    ? await tx
        .select({ projectId: tasks.projectId })
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), inArray(tasks.id, taskIds)))
    : [];
  const projectIds = unique([...touched.projectIds, ...taskProjects.map((t) => t.projectId)]);
  if (!projectIds.length && !taskIds.length) return;

  const budgetedProjects = projectIds.length
    ? await tx
        .select({
          id: projects.id,
          name: projects.name,
          ownerId: projects.ownerId,
          budget: projects.budgetMinutes,
          notified: projects.budgetNotified,
        })
        .from(projects)
        .where(
          and(eq(projects.orgId, orgId), inArray(projects.id, projectIds), isNotNull(projects.budgetMinutes)),
        )
        .orderBy(projects.id)
        .for('no key update')
    : [];
  const budgetedTasks = taskIds.length
    ? await tx
        .select({
          id: tasks.id,
          title: tasks.title,
          projectId: tasks.projectId,
          budget: tasks.budgetMinutes,
          notified: tasks.budgetNotified,
        })
        .from(tasks)
        .where(and(eq(tasks.orgId, orgId), inArray(tasks.id, taskIds), isNotNull(tasks.budgetMinutes)))
        .orderBy(tasks.id)
        .for('no key update')
    : [];
  if (!budgetedProjects.length && !budgetedTasks.length) return;

  // One after the other: statements on a transaction's connection run in turn anyway.
  const projectActual = await projectActuals(
    tx,
    orgId,
    budgetedProjects.map((p) => p.id),
  );
  const taskActual = await taskActuals(
    tx,
    orgId,
    budgetedTasks.map((t) => t.id),
  );

  const projectNotices: (TNotice & { id: string })[] = [];
  const projectLevels: { id: string; level: number }[] = [];
  for (const p of budgetedProjects) {
    const actual = projectActual.get(p.id) ?? 0;
    const { level, notice } = budgetCrossing(p.notified, actual, p.budget);
    if (level !== p.notified) projectLevels.push({ id: p.id, level });
    if (notice && p.budget)
      projectNotices.push({
        id: p.id,
        level: notice,
        actual,
        budget: p.budget,
        name: p.name,
        link: `/projects/${p.id}`,
      });
  }
  const taskNotices: (TNotice & { id: string; projectId: string | null })[] = [];
  const taskLevels: { id: string; level: number }[] = [];
  for (const t of budgetedTasks) {
    const actual = taskActual.get(t.id) ?? 0;
    const { level, notice } = budgetCrossing(t.notified, actual, t.budget);
    if (level !== t.notified) taskLevels.push({ id: t.id, level });
    if (notice && t.budget)
      taskNotices.push({
        id: t.id,
        projectId: t.projectId,
        level: notice,
        actual,
        budget: t.budget,
        name: `“${t.title.slice(0, 150)}”`,
        link: `/tasks?task=${t.id}`,
      });
  }
  await storeLevels(tx, projects, orgId, projectLevels);
  await storeLevels(tx, tasks, orgId, taskLevels);
  if (!projectNotices.length && !taskNotices.length) return;

  const recipients = await noticeRecipients(tx, orgId, projectNotices, taskNotices, budgetedProjects);
  for (const n of [...projectNotices, ...taskNotices]) {
    await notify(tx, {
      orgId,
      memberIds: recipients.get(n.id) ?? [],
      kind: 'budget.threshold',
      ...noticeText(n),
      link: n.link,
    });
  }
}

/** Who hears of each crossing, read for all of them at once. */
async function noticeRecipients(
  tx: TExecutor,
  orgId: string,
  projectNotices: { id: string }[],
  taskNotices: { id: string; projectId: string | null }[],
  known: { id: string; ownerId: string | null }[],
) {
  const to = new Map<string, Set<string>>();
  const add = (key: string, memberId: string | null) => {
    if (!memberId) return;
    const set = to.get(key) ?? new Set<string>();
    set.add(memberId);
    to.set(key, set);
  };
  const projectIds = projectNotices.map((n) => n.id);
  const taskIds = taskNotices.map((n) => n.id);
  const ownerProjects = unique(taskNotices.map((n) => n.projectId)).filter(
    (id) => !known.some((p) => p.id === id),
  );
  const team = projectIds.length
    ? await tx
        .select({ projectId: projectMembers.projectId, memberId: projectMembers.memberId })
        .from(projectMembers)
        .where(and(eq(projectMembers.orgId, orgId), inArray(projectMembers.projectId, projectIds)))
    : [];
  const assignees = taskIds.length
    ? await tx
        .select({ taskId: taskAssignees.taskId, memberId: taskAssignees.memberId })
        .from(taskAssignees)
        .where(and(eq(taskAssignees.orgId, orgId), inArray(taskAssignees.taskId, taskIds)))
    : [];
  const owners = ownerProjects.length
    ? await tx
        .select({ id: projects.id, ownerId: projects.ownerId })
        .from(projects)
        .where(and(eq(projects.orgId, orgId), inArray(projects.id, ownerProjects)))
    : [];
  const ownerOf = new Map([...known, ...owners].map((p) => [p.id, p.ownerId]));
  for (const id of projectIds) add(id, ownerOf.get(id) ?? null);
  for (const m of team) add(m.projectId, m.memberId);
  for (const n of taskNotices) add(n.id, n.projectId ? (ownerOf.get(n.projectId) ?? null) : null);
  for (const a of assignees) add(a.taskId, a.memberId);
  return new Map([...to].map(([key, set]) => [key, [...set]]));
}
