import { TRPCError } from '@trpc/server';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  lte,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { z } from 'zod';
import { todayIn } from '../../../domain/days';
import { zString } from '../../../domain/fields';
import { STORED_STATUSES, type TDisplayStatus } from '../../../domain/status';
import {
  TASK_COUNT_CAP,
  TASK_PRIORITIES,
  type TTaskListQuery,
  taskDisplayStatus,
} from '../../../domain/tasks';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, members, projects, taskAssignees, tasks } from '../../db/schema';
import { escapeLike, rowsOf } from '../../db/sql';
import { onMyClientTeam } from '../clients';
import { firmOf, taskVisibility } from './access';

export type TTaskPerson = { id: string; name: string };

export type TTaskRow = {
  id: string;
  title: string;
  status: (typeof tasks.$inferSelect)['status'];
  displayStatus: TDisplayStatus;
  priority: (typeof tasks.$inferSelect)['priority'];
  dueDate: string | null;
  completedDate: Date | null;
  tags: string[];
  forClient: boolean;
  client: { id: string; name: string } | null;
  project: { id: string; name: string } | null;
  reviewerId: string | null;
  assignees: TTaskPerson[];
  checklist: { total: number; done: number };
  createdAt: Date;
};

export type TTaskPage = {
  rows: TTaskRow[];
  /** Exact up to TASK_COUNT_CAP; beyond it the planner's estimate, and `totalCapped` is true. */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
  nextCursor: string | null;
  today: string;
};

const rankOf = (column: SQL | typeof tasks.priority, values: readonly string[]) =>
  sql<number>`(case ${column} ${sql.join(
    values.map((v, i) => sql`when ${v} then ${sql.raw(String(i))}`),
    sql` `,
  )} end)`;

/**
 * The people on a page's tasks, in one query after the rows: a hash join of the page's assignments
 * with the firm's members. (A per-row subquery here made PostgreSQL scan the members table once per
 * assignee, a quarter of a millisecond each.)
 */
async function assigneesOf(db: TExecutor, orgId: string, taskIds: string[]) {
  const byTask = new Map<string, TTaskPerson[]>();
  if (!taskIds.length) return byTask;
  const people = await db
    .select({
      taskId: taskAssignees.taskId,
      id: members.id,
      name: sql<string>`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email})`,
    })
    .from(taskAssignees)
    .innerJoin(members, and(eq(members.orgId, taskAssignees.orgId), eq(members.id, taskAssignees.memberId)))
    .where(and(eq(taskAssignees.orgId, orgId), inArray(taskAssignees.taskId, taskIds)))
    .orderBy(members.id);
  for (const { taskId, ...person } of people) {
    const list = byTask.get(taskId);
    if (list) list.push(person);
    else byTask.set(taskId, [person]);
  }
  return byTask;
}

const checklistDone = sql<number>`(select count(*)::int from jsonb_array_elements(${tasks.checklist}) e where (e->>'done')::boolean)`;

type TCursor = { v: string | null; id: string };
export function encodeTaskCursor(value: TCursor): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
function decodeTaskCursor(cursor: string): TCursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return z.object({ v: zString().max(400).nullable(), id: z.uuid() }).parse(parsed);
  } catch {
    return null;
  }
}

/** The planner's row estimate for a query: a fourth, cheap query, only when the count is capped. */
async function estimate(db: TExecutor, query: SQLWrapper): Promise<number> {
  try {
    const result = await db.execute(sql`explain (format json) ${query}`);
    const rows = rowsOf<Record<string, unknown>>(result);
    const raw = rows[0] ? Object.values(rows[0])[0] : null;
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
    return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  } catch {
    return 0;
  }
}

/** Stored status in the list, or OVERDUE (not completed, due before the firm's today). */
function statusFilter(statuses: readonly string[], today: string): SQL | undefined {
  const stored = statuses.filter((s) => s !== 'OVERDUE') as (typeof STORED_STATUSES)[number][];
  const parts: SQL[] = [];
  if (stored.length) parts.push(inArray(tasks.status, stored));
  if (statuses.includes('OVERDUE')) {
    parts.push(sql`(${tasks.completedDate} is null and ${tasks.dueDate} < ${today}::date)`);
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * One page of tasks: the firm row (time zone), then the rows and a capped count in parallel, then
 * the page's assignees: four queries whatever the page size. 'mine' drives from
 * task_assignees_member_due_idx so "my tasks by due date" is one index range.
 */
export async function listTasks(db: TExecutor, scope: TScope, input: TTaskListQuery): Promise<TTaskPage> {
  const firm = await firmOf(db, scope.orgId);
  const today = todayIn(firm.timeZone);
  const mine = input.view === 'mine';

  const where: (SQL | undefined)[] = [eq(tasks.orgId, scope.orgId), taskVisibility(scope)];
  if (mine) where.push(eq(taskAssignees.orgId, scope.orgId), eq(taskAssignees.memberId, scope.memberId));
  if (input.view === 'team') {
    where.push(onMyClientTeam(scope, tasks.clientId));
  }
  if (input.status?.length) where.push(statusFilter(input.status, today));
  // A literal, not a parameter, so the planner matches tasks_org_open_due_idx's predicate.
  else if (!input.includeCompleted) where.push(sql`${tasks.status} <> 'COMPLETED'`);
  if (input.priority?.length) where.push(inArray(tasks.priority, input.priority));
  if (input.assigneeId) {
    where.push(sql`exists (select 1 from task_assignees fa where fa.org_id = ${tasks.orgId}
      and fa.task_id = ${tasks.id} and fa.member_id = ${input.assigneeId})`);
  }
  if (input.reviewerId) where.push(eq(tasks.reviewerId, input.reviewerId));
  if (input.clientId) where.push(eq(tasks.clientId, input.clientId));
  if (input.projectId) where.push(eq(tasks.projectId, input.projectId));
  if (input.forClient !== undefined) where.push(eq(tasks.forClient, input.forClient));
  if (input.tag) where.push(arrayContains(tasks.tags, [input.tag]));
  if (input.dueFrom) where.push(gte(tasks.dueDate, input.dueFrom));
  if (input.dueTo) where.push(lte(tasks.dueDate, input.dueTo));
  // Served by the trigram index on lower(title).
  if (input.search) where.push(sql`lower(${tasks.title}) like ${escapeLike(input.search.toLowerCase())}`);
  const filter = and(...where);

  const { field, dir } = input.sort;
  const dueColumn = mine ? taskAssignees.dueDate : tasks.dueDate;
  const idColumn = mine ? taskAssignees.taskId : tasks.id;
  const keyOf: Record<typeof field, { key: SQL; cast: string; cursor: SQL }> = {
    dueDate: { key: sql`${dueColumn}`, cast: 'date', cursor: sql`${dueColumn}::text` },
    title: { key: sql`${tasks.title}`, cast: 'text', cursor: sql`${tasks.title}` },
    // No (org_id, created_at) index on tasks yet: an unfiltered sort by it sorts the firm's tasks.
    createdAt: {
      key: sql`${tasks.createdAt}`,
      cast: 'timestamptz',
      cursor: sql`to_char(${tasks.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    },
    priority: {
      key: rankOf(tasks.priority, TASK_PRIORITIES),
      cast: 'int',
      cursor: sql`${rankOf(tasks.priority, TASK_PRIORITIES)}::text`,
    },
    // The board's own order within a column (float8's text form round-trips exactly).
    position: { key: sql`${tasks.position}`, cast: 'float8', cursor: sql`${tasks.position}::text` },
    status: {
      key: rankOf(sql`${tasks.status}`, STORED_STATUSES),
      cast: 'int',
      cursor: sql`${rankOf(sql`${tasks.status}`, STORED_STATUSES)}::text`,
    },
  };
  const { key, cast, cursor: cursorValue } = keyOf[field];
  const asc_ = dir === 'asc';

  const keyset = input.cursor ? decodeTaskCursor(input.cursor) : null;
  if (input.cursor && !keyset) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This page link is not valid: go back to page 1' });
  }
  let after: SQL | undefined;
  if (keyset) {
    // Only the due date can be null: PostgreSQL puts nulls last ascending and first descending.
    const op = sql.raw(asc_ ? '>' : '<');
    const v = keyset.v === null ? null : sql`${keyset.v}::${sql.raw(cast)}`;
    const id = sql`${keyset.id}::uuid`;
    if (v === null) {
      after = asc_
        ? sql`(${key} is null and ${idColumn} > ${id})`
        : sql`(${key} is not null or ${idColumn} < ${id})`;
    } else {
      after = asc_
        ? sql`((${key}, ${idColumn}) > (${v}, ${id}) or ${key} is null)`
        : sql`(${key}, ${idColumn}) ${op} (${v}, ${id})`;
    }
  }
  const order = asc_ ? [asc(key), asc(idColumn)] : [desc(key), desc(idColumn)];
  const offset = keyset ? 0 : (input.page - 1) * input.pageSize;

  const rowsQuery = db
    .select({
      id: tasks.id,
      title: tasks.title,
      status: tasks.status,
      priority: tasks.priority,
      dueDate: tasks.dueDate,
      completedDate: tasks.completedDate,
      tags: tasks.tags,
      forClient: tasks.forClient,
      clientId: tasks.clientId,
      clientName: clients.name,
      projectId: tasks.projectId,
      projectName: projects.name,
      reviewerId: tasks.reviewerId,
      checklistTotal: sql<number>`jsonb_array_length(${tasks.checklist})`,
      checklistDone,
      createdAt: tasks.createdAt,
      cursorValue: sql<string | null>`${cursorValue}`,
    })
    .from(mine ? taskAssignees : tasks);
  const joined = (
    mine
      ? rowsQuery.innerJoin(
          tasks,
          and(eq(tasks.orgId, taskAssignees.orgId), eq(tasks.id, taskAssignees.taskId)),
        )
      : rowsQuery
  )
    .leftJoin(clients, and(eq(clients.orgId, tasks.orgId), eq(clients.id, tasks.clientId)))
    .leftJoin(projects, and(eq(projects.orgId, tasks.orgId), eq(projects.id, tasks.projectId)));

  // A fresh builder per use: drizzle's builders are mutable.
  const matching = () => {
    const inner = db.select({ one: sql`1` }).from(mine ? taskAssignees : tasks);
    return (
      mine
        ? inner.innerJoin(
            tasks,
            and(eq(tasks.orgId, taskAssignees.orgId), eq(tasks.id, taskAssignees.taskId)),
          )
        : inner
    ).where(filter);
  };

  const [rows, [totals]] = await Promise.all([
    joined
      .where(after ? and(filter, after) : filter)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(
      matching()
        .limit(TASK_COUNT_CAP + 1)
        .as('capped'),
    ),
  ]);
  const counted = Number(totals?.total ?? 0);
  const capped = counted > TASK_COUNT_CAP;
  const total = capped ? Math.max(TASK_COUNT_CAP + 1, await estimate(db, matching())) : counted;
  const people = await assigneesOf(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      title: r.title,
      status: r.status,
      displayStatus: taskDisplayStatus(r, today),
      priority: r.priority,
      dueDate: r.dueDate,
      completedDate: r.completedDate,
      tags: r.tags,
      forClient: r.forClient,
      client: r.clientId && r.clientName ? { id: r.clientId, name: r.clientName } : null,
      project: r.projectId && r.projectName ? { id: r.projectId, name: r.projectName } : null,
      reviewerId: r.reviewerId,
      assignees: people.get(r.id) ?? [],
      checklist: { total: Number(r.checklistTotal), done: Number(r.checklistDone) },
      createdAt: r.createdAt,
    })),
    total,
    totalCapped: capped,
    page: input.page,
    pageSize: input.pageSize,
    nextCursor:
      last && rows.length === input.pageSize
        ? encodeTaskCursor({ v: last.cursorValue ?? null, id: last.id })
        : null,
    today,
  };
}
