import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { percent, type ZClientSummary } from '../../../domain/reports';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { entry, timeLogged } from '../timesheets';
import { clientsWhere, coveredClient, num, orderBy, reportContext, type TReportContext } from './scope';

export type TClientSummaryRow = {
  id: string;
  code: string;
  name: string;
  groupName: string | null;
  projects: number;
  projectsCompleted: number;
  tasks: { scheduled: number; inProgress: number; inReview: number; completed: number };
  openTasks: number;
  overdue: number;
  /** Completed on or before the due date, of the tasks completed (null: none completed). */
  onTimeShare: number | null;
  pendingTodos: number;
  billableMinutes: number;
  otherMinutes: number;
  budgetMinutes: number;
  actualMinutes: number;
  lastActivity: Date | null;
  /** Billable time's value in the currency's minor unit; only for callers who see money. */
  billableValue?: number;
  /** Billable minutes no billing rate covers; only for callers who see money. */
  unratedMinutes?: number;
};

const SORTS: Record<z.output<typeof ZClientSummary>['sort'], SQL> = {
  name: sql`name`,
  projects: sql`projects`,
  openTasks: sql`open_tasks`,
  overdue: sql`overdue`,
  onTimeShare: sql`(on_time::float8 / nullif(completed_n, 0))`,
  pendingTodos: sql`pending_todos`,
  minutes: sql`(billable_minutes + other_minutes)`,
};

type TClientSummaryInput = z.output<typeof ZClientSummary>;

/** The statements' pieces, shared by the page and the ranking. */
function parts(ctx: TReportContext, scope: TScope, input: TClientSummaryInput) {
  const o = scope.orgId;
  const service = input.serviceId ? sql`and p.service_id = ${input.serviceId}` : sql``;
  const taskService = input.serviceId
    ? sql`and t.project_id in (select p.id from projects p where p.org_id = ${o} and p.service_id = ${input.serviceId})`
    : sql``;
  const where = clientsWhere(scope, input);
  /**
   * The measures' CTEs (p, pa, t, todo, te) over the clients `covered` names: one row per client
   * when `perClient`, else one row of firm totals (no hash over every client to sum them after).
   */
  const measures = (covered: (column: SQL) => SQL, perClient: boolean) => {
    const key = (column: SQL) => (perClient ? sql`${column} as client_id,` : sql``);
    const group = (column: SQL) => (perClient ? sql`group by ${column}` : sql``);
    return sql`
    p as (
      select ${key(sql`p.client_id`)} count(*)::int as projects,
        count(*) filter (where p.status = 'COMPLETED')::int as projects_completed,
        coalesce(sum(p.budget_minutes), 0)::int as budget
      from projects p
      where p.org_id = ${o} and p.archived_at is null and p.due_date between ${input.from} and ${input.to}
        and ${covered(sql`p.client_id`)} ${service}
      ${group(sql`p.client_id`)}
    ),
    pa as (
      select ${key(sql`p.client_id`)} coalesce(sum(te.minutes), 0)::int as actual
      from projects p join timesheet_entries te on te.org_id = p.org_id and te.project_id = p.id
      where p.org_id = ${o} and p.archived_at is null and p.due_date between ${input.from} and ${input.to}
        and p.budget_minutes is not null and ${covered(sql`p.client_id`)} ${service}
      ${group(sql`p.client_id`)}
    ),
    t as (
      select ${key(sql`t.client_id`)}
        count(*) filter (where t.status = 'SCHEDULED')::int as scheduled,
        count(*) filter (where t.status = 'IN_PROGRESS')::int as in_progress,
        count(*) filter (where t.status = 'IN_REVIEW')::int as in_review,
        count(*) filter (where t.status = 'COMPLETED')::int as completed,
        count(*) filter (where t.completed_date is null and t.due_date < ${ctx.today}::date)::int as overdue,
        count(*) filter (where t.completed_date is not null)::int as completed_n,
        count(*) filter (where t.completed_date is not null
          and (t.completed_date at time zone ${ctx.timeZone})::date <= t.due_date)::int as on_time
      from tasks t
      where t.org_id = ${o} and t.due_date between ${input.from} and ${input.to}
        and ${covered(sql`t.client_id`)} ${taskService}
      ${group(sql`t.client_id`)}
    ),
    todo as (
      select ${key(sql`t.client_id`)} count(*)::int as pending
      from tasks t
      where t.org_id = ${o} and t.for_client and t.status <> 'COMPLETED' and ${covered(sql`t.client_id`)}
      ${group(sql`t.client_id`)}
    ),
    te as (${timeLogged(
      sql`${entry('org_id')} = ${o} and ${entry('date')} between ${input.from} and ${input.to}
        and ${covered(entry('client_id'))}`,
      ctx.money,
      perClient ? 'client_id' : undefined,
    )})`;
  };
  const columns = sql`
        coalesce(p.projects, 0) as projects, coalesce(p.projects_completed, 0) as projects_completed,
        coalesce(t.scheduled, 0) as scheduled, coalesce(t.in_progress, 0) as in_progress,
        coalesce(t.in_review, 0) as in_review, coalesce(t.completed, 0) as completed,
        coalesce(t.scheduled, 0) + coalesce(t.in_progress, 0) + coalesce(t.in_review, 0) as open_tasks,
        coalesce(t.overdue, 0) as overdue, coalesce(t.completed_n, 0) as completed_n,
        coalesce(t.on_time, 0) as on_time, coalesce(todo.pending, 0) as pending_todos,
        coalesce(te.billable, 0) as billable_minutes, coalesce(te.other, 0) as other_minutes,
        coalesce(te.value, 0) as value, coalesce(te.unrated, 0) as unrated,
        coalesce(p.budget, 0) as budget, coalesce(pa.actual, 0) as actual`;
  const joinMeasures = sql`
      left join p on p.client_id = c.id left join pa on pa.client_id = c.id left join t on t.client_id = c.id
      left join todo on todo.client_id = c.id left join te on te.client_id = c.id`;
  const everyCovered = (column: SQL) => coveredClient(ctx, scope, input, column);
  const clientRow = sql`select c.id, c.code, c.name, g.name as group_name from clients c
      left join client_groups g on g.org_id = c.org_id and g.id = c.group_id
      where ${where}`;
  return { o, where, measures, columns, joinMeasures, everyCovered, clientRow };
}

/**
 * The clients of a page sorted by a measure, in order: the measure for every covered client, then
 * a sort. The other measures' joins are left out by the planner (nothing reads them, and each is
 * grouped by client), so sorting by overdue works out tasks alone, not time and projects too.
 */
export async function rankClients(
  db: TExecutor,
  scope: TScope,
  input: TClientSummaryInput,
  context?: TReportContext,
): Promise<string[]> {
  const ctx = context ?? (await reportContext(db, scope, input));
  const { measures, columns, joinMeasures, everyCovered, clientRow } = parts(ctx, scope, input);
  const result = await db.execute(sql`
    with c as (${clientRow}),
    ${measures(everyCovered, true)},
    r as (select c.id, c.name, ${columns} from c ${joinMeasures})
    select r.id from r
    order by ${orderBy(SORTS[input.sort], input.direction, sql`name asc, id asc`)}
    limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`);
  return rowsOf<{ id: string }>(result).map((r) => String(r.id));
}

/**
 * Per client covered: its projects and tasks due in the period by status, overdue (open past due
 * today), on-time share, the portal to-dos still open, time logged in the period (billable or not)
 * and the period's projects' budget against the time logged on them. Each measure is a grouped CTE
 * over the page's clients, the firm's totals one ungrouped pass over every covered client, and
 * only the page's rows read their last activity.
 */
export async function clientSummary(
  db: TExecutor,
  scope: TScope,
  input: TClientSummaryInput,
  // The export reads page after page and wants only the count, not the firm's totals each time;
  // sorted by a measure, it ranks the clients once (rankClients) and names each page's.
  options: { totals?: boolean; ids?: string[] } = {},
) {
  const ctx = await reportContext(db, scope, input);
  const { o, where, measures, columns, joinMeasures, everyCovered, clientRow } = parts(ctx, scope, input);
  const totalsSql = sql`
      with ${measures(everyCovered, false)}
      select (select count(*) from clients c where ${where}) as total,
        p.projects as t_projects, p.projects_completed as t_projects_completed,
        t.scheduled as t_scheduled, t.in_progress as t_in_progress, t.in_review as t_in_review,
        t.completed as t_completed, t.overdue as t_overdue, t.completed_n as t_completed_n,
        t.on_time as t_on_time, todo.pending as t_pending_todos, te.billable as t_billable,
        te.other as t_other, te.value as t_value, te.unrated as t_unrated, p.budget as t_budget,
        pa.actual as t_actual
      from p, pa, t, todo, te`;
  const offset = (input.page - 1) * input.pageSize;
  const lastActivity = sql`(select max(x.updated_at) from tasks x where x.org_id = ${o} and x.client_id = pg.id) as last_activity`;
  // By name (the default), the page is known before any measure: page the clients first, measure
  // only those, and sum the firm's totals in one ungrouped pass. By a measure, the clients are
  // first ranked by it (rankClients: only that measure is worked out for every covered client),
  // then the page is measured the same way.
  // Names are never null, so ascending needs no NULLS FIRST: without it the default order is
  // clients_org_name_idx's, and the page is its first 50 entries rather than a sort of every client.
  const byName =
    input.direction === 'asc'
      ? sql`c.name asc, c.id asc`
      : orderBy(sql`c.name`, input.direction, sql`c.id asc`);
  const ids = options.ids ?? (input.sort === 'name' ? null : await rankClients(db, scope, input, ctx));
  const idList = ids && sql`${`{${ids.join(',')}}`}::uuid[]`;
  const page = idList
    ? {
        clients: sql`select * from (${clientRow}) c where c.id = any(${idList})`,
        order: sql`array_position(${idList}, c.id)`,
      }
    : {
        clients: sql`${clientRow} order by ${byName} limit ${input.pageSize} offset ${offset}`,
        order: byName,
      };
  const result = await db.execute(sql`
    with c as (${page.clients}),
    ${measures((column) => sql`${column} in (select c.id from c)`, true)},
    pg as (
      select c.id, c.code, c.name, c.group_name, ${columns},
        row_number() over (order by ${page.order}) as rn
      from c ${joinMeasures}
    ),
    tot as (
      ${options.totals === false ? sql`select (select count(*) from clients c where ${where}) as total` : totalsSql}
    )
    select pg.*, tot.*, ${lastActivity}
    from pg cross join tot
    order by rn`);
  const raw = rowsOf<Record<string, unknown>>(result);
  const first = raw[0];
  // With money, what no rate covers too: a zero value must not pass for time worth nothing.
  const withMoney = <T extends object>(
    row: T,
    value: unknown,
    unrated: unknown,
  ): T & { billableValue?: number; unratedMinutes?: number } =>
    ctx.money ? { ...row, billableValue: num(value), unratedMinutes: num(unrated) } : row;
  const rows: TClientSummaryRow[] = raw.map((r) =>
    withMoney(
      {
        id: String(r.id),
        code: String(r.code),
        name: String(r.name),
        groupName: (r.group_name as string | null) ?? null,
        projects: num(r.projects),
        projectsCompleted: num(r.projects_completed),
        tasks: {
          scheduled: num(r.scheduled),
          inProgress: num(r.in_progress),
          inReview: num(r.in_review),
          completed: num(r.completed),
        },
        openTasks: num(r.open_tasks),
        overdue: num(r.overdue),
        onTimeShare: percent(num(r.on_time), num(r.completed_n)),
        pendingTodos: num(r.pending_todos),
        billableMinutes: num(r.billable_minutes),
        otherMinutes: num(r.other_minutes),
        budgetMinutes: num(r.budget),
        actualMinutes: num(r.actual),
        lastActivity: r.last_activity ? new Date(String(r.last_activity)) : null,
      },
      r.value,
      r.unrated,
    ),
  );
  const totals = first
    ? withMoney(
        {
          projects: num(first.t_projects),
          projectsCompleted: num(first.t_projects_completed),
          tasks: {
            scheduled: num(first.t_scheduled),
            inProgress: num(first.t_in_progress),
            inReview: num(first.t_in_review),
            completed: num(first.t_completed),
          },
          overdue: num(first.t_overdue),
          onTimeShare: percent(num(first.t_on_time), num(first.t_completed_n)),
          pendingTodos: num(first.t_pending_todos),
          billableMinutes: num(first.t_billable),
          otherMinutes: num(first.t_other),
          budgetMinutes: num(first.t_budget),
          actualMinutes: num(first.t_actual),
        },
        first.t_value,
        first.t_unrated,
      )
    : null;
  return {
    rows,
    total: first ? num(first.total) : 0,
    page: input.page,
    pageSize: input.pageSize,
    totals,
    money: ctx.money,
    currency: ctx.currency,
    today: ctx.today,
  };
}
