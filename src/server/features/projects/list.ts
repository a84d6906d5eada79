import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  not,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { z } from 'zod';
import type { TPage } from '../../../domain/pagination';
import type { TProjectListQuery, ZProjectBoardInput } from '../../../domain/projects';
import { STORED_STATUSES, type TStoredStatus } from '../../../domain/status';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, members, projectMembers, projects, services, tasks } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility } from '../clients';
import { firmToday, overdue } from './access';

export type TProjectRow = {
  id: string;
  name: string;
  client: { id: string; name: string; code: string };
  service: { id: string; name: string } | null;
  periodKey: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  status: TStoredStatus;
  startDate: string | null;
  dueDate: string | null;
  completedDate: Date | null;
  owner: { id: string; name: string } | null;
  archivedAt: Date | null;
  progress: { done: number; total: number };
};

type TFilters = Partial<
  Pick<
    TProjectListQuery,
    'clientId' | 'serviceId' | 'memberId' | 'periodKey' | 'dueFrom' | 'dueTo' | 'search'
  >
> & {
  archived?: boolean;
};

function filterWhere(scope: TScope, input: TFilters): SQL[] {
  const where: SQL[] = [eq(projects.orgId, scope.orgId)];
  const visible = clientVisibility(scope, projects.clientId);
  if (visible) where.push(visible);
  where.push(input.archived ? isNotNull(projects.archivedAt) : isNull(projects.archivedAt));
  if (input.clientId) where.push(eq(projects.clientId, input.clientId));
  if (input.serviceId) where.push(eq(projects.serviceId, input.serviceId));
  if (input.periodKey) where.push(eq(projects.periodKey, input.periodKey));
  if (input.dueFrom) where.push(gte(projects.dueDate, input.dueFrom));
  if (input.dueTo) where.push(lte(projects.dueDate, input.dueTo));
  if (input.search) where.push(ilike(projects.name, escapeLike(input.search)));
  if (input.memberId) {
    const member = input.memberId;
    const onIt = sql`exists (select 1 from ${projectMembers} where ${projectMembers.orgId} = ${projects.orgId}
      and ${projectMembers.projectId} = ${projects.id} and ${projectMembers.memberId} = ${member})`;
    where.push(or(eq(projects.ownerId, member), onIt) as SQL);
  }
  return where;
}

const rowColumns = {
  id: projects.id,
  name: projects.name,
  clientId: clients.id,
  clientName: clients.name,
  clientCode: clients.code,
  serviceId: services.id,
  serviceName: services.name,
  periodKey: projects.periodKey,
  periodStart: projects.periodStart,
  periodEnd: projects.periodEnd,
  status: projects.status,
  startDate: projects.startDate,
  dueDate: projects.dueDate,
  completedDate: projects.completedDate,
  ownerId: members.id,
  ownerName: memberName,
  archivedAt: projects.archivedAt,
};

function baseQuery(db: TExecutor) {
  return db
    .select(rowColumns)
    .from(projects)
    .innerJoin(clients, and(eq(clients.orgId, projects.orgId), eq(clients.id, projects.clientId)))
    .leftJoin(services, and(eq(services.orgId, projects.orgId), eq(services.id, projects.serviceId)))
    .leftJoin(members, and(eq(members.orgId, projects.orgId), eq(members.id, projects.ownerId)));
}

/** Tasks done and total for a page of projects: one grouped query, not one per row. */
async function progressOf(db: TExecutor, orgId: string, projectIds: string[]) {
  if (!projectIds.length) return new Map<string, { done: number; total: number }>();
  const rows = await db
    .select({
      projectId: tasks.projectId,
      total: count(),
      done: sql<number>`count(*) filter (where ${tasks.status} = 'COMPLETED')::int`,
    })
    .from(tasks)
    .where(and(eq(tasks.orgId, orgId), inArray(tasks.projectId, projectIds)))
    .groupBy(tasks.projectId);
  return new Map(rows.map((r) => [r.projectId as string, { done: Number(r.done), total: Number(r.total) }]));
}

type TRaw = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toRow(r: TRaw, progress: Map<string, { done: number; total: number }>): TProjectRow {
  return {
    id: r.id,
    name: r.name,
    client: { id: r.clientId, name: r.clientName, code: r.clientCode },
    service: r.serviceId && r.serviceName ? { id: r.serviceId, name: r.serviceName } : null,
    periodKey: r.periodKey,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    status: r.status,
    startDate: r.startDate,
    dueDate: r.dueDate,
    completedDate: r.completedDate,
    owner: r.ownerId ? { id: r.ownerId, name: r.ownerName } : null,
    archivedAt: r.archivedAt,
    progress: progress.get(r.id) ?? { done: 0, total: 0 },
  };
}

export async function listProjects(
  db: TExecutor,
  scope: TScope,
  input: TProjectListQuery,
): Promise<TPage<TProjectRow> & { today: string }> {
  const today = await firmToday(db, scope.orgId);
  const where = filterWhere(scope, input);
  if (input.status === 'OVERDUE') where.push(overdue(today));
  else if (input.status) {
    // A stored status lists what shows that status: overdue items show OVERDUE instead.
    where.push(eq(projects.status, input.status), not(overdue(today)));
  } else if (!input.includeCompleted) {
    // Open work by default, the predicate of projects_open_due_idx (a literal so the planner sees it).
    where.push(sql`${projects.status} in ('SCHEDULED', 'IN_PROGRESS', 'IN_REVIEW')`);
  }
  const filter = and(...where);
  const dir = input.direction === 'asc' ? asc : desc;
  const nulls = sql.raw(input.direction === 'asc' ? 'nulls last' : 'nulls first');
  const order: SQL[] = {
    dueDate: [sql`${projects.dueDate} ${sql.raw(input.direction)} ${nulls}`],
    name: [dir(projects.name)],
    client: [dir(clients.name)],
    status: [dir(projects.status), asc(projects.dueDate)],
    createdAt: [dir(projects.createdAt)],
  }[input.sort];
  // The count reads projects alone: every project has its client (client_id is not null, and a
  // foreign key), so joining clients only doubled the work, a hash of the firm's clients per call.
  const [rows, [totals]] = await Promise.all([
    baseQuery(db)
      .where(filter)
      .orderBy(...order, dir(projects.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(projects).where(filter),
  ]);
  const progress = await progressOf(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => toRow(r, progress)),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    today,
  };
}

/** The board: a column per stored status, nearest due first, with each column's full count. */
export async function projectBoard(db: TExecutor, scope: TScope, input: z.output<typeof ZProjectBoardInput>) {
  const today = await firmToday(db, scope.orgId);
  const where = filterWhere(scope, input);
  const columns = await Promise.all(
    STORED_STATUSES.map(async (status) => {
      const filter = and(...where, eq(projects.status, status));
      const [rows, [totals]] = await Promise.all([
        baseQuery(db)
          .where(filter)
          .orderBy(sql`${projects.dueDate} asc nulls last`, asc(projects.id))
          .limit(input.limit),
        db.select({ total: count() }).from(projects).where(filter),
      ]);
      return { status, rows, total: totals?.total ?? 0 };
    }),
  );
  const progress = await progressOf(
    db,
    scope.orgId,
    columns.flatMap((c) => c.rows.map((r) => r.id)),
  );
  return {
    today,
    columns: columns.map((c) => ({
      status: c.status,
      total: c.total,
      rows: c.rows.map((r) => toRow(r, progress)),
    })),
  };
}
