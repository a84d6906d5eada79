import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZPortalProjectList } from '../../../domain/client-portal';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { projects, tasks } from '../../db/schema';

// The client's projects as the portal shows them: name, period, status, due date and progress.
// Never the description (the firm's internal notes), the owner or the members.

const clientProjects = (access: TPortalClientAccess) =>
  and(eq(projects.orgId, access.orgId), eq(projects.clientId, access.clientId), isNull(projects.archivedAt));

const projectColumns = {
  id: projects.id,
  name: projects.name,
  periodStart: projects.periodStart,
  periodEnd: projects.periodEnd,
  status: projects.status,
  startDate: projects.startDate,
  dueDate: projects.dueDate,
  completedDate: projects.completedDate,
};

/** Tasks done and total per project: one grouped query for the page. */
async function progressOf(db: TExecutor, access: TPortalClientAccess, ids: string[]) {
  if (!ids.length) return new Map<string, { done: number; total: number }>();
  const rows = await db
    .select({
      projectId: tasks.projectId,
      total: count(),
      done: sql<number>`count(*) filter (where ${tasks.status} = 'COMPLETED')::int`,
    })
    .from(tasks)
    .where(and(eq(tasks.orgId, access.orgId), inArray(tasks.projectId, ids)))
    .groupBy(tasks.projectId);
  return new Map(rows.map((r) => [r.projectId as string, { done: Number(r.done), total: Number(r.total) }]));
}

async function withProgress<T extends { id: string }>(db: TExecutor, access: TPortalClientAccess, rows: T[]) {
  const progress = await progressOf(
    db,
    access,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, progress: progress.get(r.id) ?? { done: 0, total: 0 } }));
}

/** Open projects first (soonest due first), then completed ones, newest first. */
export async function listPortalProjects(
  db: TExecutor,
  access: TPortalClientAccess,
  input: z.output<typeof ZPortalProjectList>,
) {
  const where = clientProjects(access);
  const [rows, [total]] = await Promise.all([
    db
      .select(projectColumns)
      .from(projects)
      .where(where)
      .orderBy(
        sql`(${projects.status} = 'COMPLETED') asc`,
        sql`case when ${projects.status} = 'COMPLETED' then null else ${projects.dueDate} end asc nulls last`,
        sql`${projects.completedDate} desc nulls last`,
        projects.id,
      )
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(projects).where(where),
  ]);
  return {
    rows: await withProgress(db, access, rows),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** Projects not completed yet, soonest due first (the home screen). */
export async function projectsInProgress(db: TExecutor, access: TPortalClientAccess, limit = 5) {
  const rows = await db
    .select(projectColumns)
    .from(projects)
    .where(and(clientProjects(access), ne(projects.status, 'COMPLETED')))
    .orderBy(sql`${projects.dueDate} asc nulls last`, projects.id)
    .limit(limit);
  return withProgress(db, access, rows);
}
