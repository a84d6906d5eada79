import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { addDays, daysBetween } from '../../../domain/days';
import { HEAT_MAP_DAYS, percent, type ZTeamSummary } from '../../../domain/reports';
import { STORED_STATUSES } from '../../../domain/status';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { availableMinutes } from '../leave';
import { entry, timeLogged } from '../timesheets';
import { clientsWhere, num, orderBy, reportContext } from './scope';

export type TTeamSummaryRow = {
  id: string;
  name: string;
  openTasks: number;
  overdue: number;
  /** Budgeted minutes of their open tasks (a task's budget shared among its assignees). */
  workAheadMinutes: number;
  /** Their open tasks without an hours budget: work ahead and load leave these out. */
  unbudgetedTasks: number;
  /** Minutes they can work over the coming HEAT_MAP_DAYS (work pattern less holidays and leave). */
  availableAheadMinutes: number;
  /** Work ahead against available time ahead, as a percentage (null: no time available). */
  load: number | null;
  completed: number;
  minutes: number;
  billableMinutes: number;
  billableShare: number | null;
  /** Minutes they could work in the period. */
  availableMinutes: number;
  utilisation: number | null;
  billableValue?: number;
  cost?: number;
  /** Billable minutes no billing rate covers, and minutes without a cost rate (with money only). */
  unratedMinutes?: number;
  uncostedMinutes?: number;
};

/** The open statuses, as the partial index on assignee rows names them (so the planner uses it). */
const OPEN_LIST = STORED_STATUSES.filter((s) => s !== 'COMPLETED')
  .map((s) => `'${s}'`)
  .join(', ');

const SORTS: Record<z.output<typeof ZTeamSummary>['sort'], SQL> = {
  name: sql`name`,
  openTasks: sql`open_tasks`,
  workAhead: sql`work_ahead`,
  overdue: sql`overdue`,
  completed: sql`completed`,
  minutes: sql`minutes`,
};

/**
 * Per active member: open and overdue tasks, the budgeted work ahead of them, tasks completed in the
 * period (those they were assigned), time logged in the period and its billable share. One query;
 * capacity comes from the leave feature's availableMinutes for the page's members only, and the
 * heat map (budgeted work due per day against the day's free minutes, the coming weeks) from one
 * grouped query over the same members.
 */
export async function teamSummary(db: TExecutor, scope: TScope, input: z.output<typeof ZTeamSummary>) {
  const ctx = await reportContext(db, scope, input);
  const o = scope.orgId;
  // Tasks and time count when their client is covered; without narrowing, client-less work counts too.
  const taskClient = ctx.clientsNarrowed
    ? sql`and t.client_id in (select c.id from clients c where ${clientsWhere(scope, input)})`
    : sql``;
  const assignedClient = ctx.clientsNarrowed
    ? sql`and ta.task_id in (select t.id from tasks t where t.org_id = ${o} and t.client_id in (select c.id from clients c where ${clientsWhere(scope, input)}))`
    : sql``;
  const entryClient = ctx.clientsNarrowed
    ? sql`and ${entry('client_id')} in (select c.id from clients c where ${clientsWhere(scope, input)})`
    : sql``;
  const member = input.memberId ? sql`and m.id = ${input.memberId}` : sql``;
  const dayAfter = addDays(input.to, 1);
  const result = await db.execute(sql`
    with m as (
      select m.id, trim(m.first_name || ' ' || m.last_name) as name from members m
      where m.org_id = ${o} and m.status = 'active' ${member}
    ),
    a as (
      -- Open and overdue from the assignee rows alone (they carry their task's status and due
      -- date): an index-only count over task_assignees_member_open_due_idx, no task read.
      select ta.member_id, count(*)::int as open_tasks,
        count(*) filter (where ta.due_date < ${ctx.today}::date)::int as overdue
      from task_assignees ta
      where ta.org_id = ${o} and ta.status in (${sql.raw(OPEN_LIST)}) ${assignedClient}
      group by ta.member_id
    ),
    w as (
      -- Work ahead: only budgeted open tasks (tasks_open_budgeted_idx), each budget shared among
      -- its assignees.
      select ta.member_id, coalesce(round(sum(t.budget_minutes::numeric / (select count(*)
        from task_assignees x where x.org_id = t.org_id and x.task_id = t.id))), 0)::int as work_ahead,
        count(*)::int as budgeted
      from tasks t join task_assignees ta on ta.org_id = t.org_id and ta.task_id = t.id
      where t.org_id = ${o} and t.budget_minutes is not null and t.status <> 'COMPLETED' ${taskClient}
      group by ta.member_id
    ),
    d as (
      -- Completed in the period, from the assignee rows' copy of the completion date: one range
      -- over task_assignees_completed_idx (joining the period's tasks to every assignee row was
      -- most of this report's time).
      select ta.member_id, count(*)::int as completed
      from task_assignees ta
      where ta.org_id = ${o} and ta.completed_date >= (${input.from}::date::timestamp at time zone ${ctx.timeZone})
        and ta.completed_date < (${dayAfter}::date::timestamp at time zone ${ctx.timeZone}) ${assignedClient}
      group by ta.member_id
    ),
    te as (${timeLogged(
      sql`${entry('org_id')} = ${o} and ${entry('date')} between ${input.from} and ${input.to} ${entryClient}`,
      ctx.money,
      'member_id',
    )}),
    r as (
      select m.id, m.name, coalesce(a.open_tasks, 0) as open_tasks, coalesce(a.overdue, 0) as overdue,
        coalesce(w.work_ahead, 0) as work_ahead, coalesce(d.completed, 0) as completed,
        greatest(coalesce(a.open_tasks, 0) - coalesce(w.budgeted, 0), 0) as unbudgeted,
        coalesce(te.unrated, 0) as unrated, coalesce(te.uncosted, 0) as uncosted,
        coalesce(te.minutes, 0) as minutes, coalesce(te.billable, 0) as billable,
        coalesce(te.value, 0) as value, coalesce(te.cost, 0) as cost
      from m left join a on a.member_id = m.id left join w on w.member_id = m.id
        left join d on d.member_id = m.id left join te on te.member_id = m.id
    ),
    pg as (
      select r.*, count(*) over () as total, sum(open_tasks) over () as t_open, sum(overdue) over () as t_overdue,
        sum(work_ahead) over () as t_work_ahead, sum(completed) over () as t_completed,
        sum(minutes) over () as t_minutes, sum(billable) over () as t_billable,
        sum(value) over () as t_value, sum(cost) over () as t_cost,
        sum(unbudgeted) over () as t_unbudgeted, sum(unrated) over () as t_unrated,
        sum(uncosted) over () as t_uncosted,
        row_number() over (order by ${orderBy(SORTS[input.sort], input.direction, sql`name asc, id asc`)}) as rn
      from r
    )
    select * from pg where rn > ${(input.page - 1) * input.pageSize} and rn <= ${input.page * input.pageSize}
    order by rn`);
  const raw = rowsOf<Record<string, unknown>>(result);
  const ids = raw.map((r) => String(r.id));
  const aheadTo = addDays(ctx.today, HEAT_MAP_DAYS - 1);
  const [inPeriod, ahead, due] = await Promise.all([
    availableMinutes(db, o, ids, input.from, input.to),
    availableMinutes(db, o, ids, ctx.today, aheadTo),
    dueAhead(db, o, ids, ctx.today, aheadTo, taskClient),
  ]);
  const sum = (days: Record<string, number> | undefined) =>
    Object.values(days ?? {}).reduce((a, b) => a + b, 0);
  const rows: TTeamSummaryRow[] = raw.map((r) => {
    const id = String(r.id);
    const available = sum(inPeriod.get(id));
    const availableAhead = sum(ahead.get(id));
    const row: TTeamSummaryRow = {
      id,
      name: String(r.name),
      openTasks: num(r.open_tasks),
      overdue: num(r.overdue),
      workAheadMinutes: num(r.work_ahead),
      unbudgetedTasks: num(r.unbudgeted),
      availableAheadMinutes: availableAhead,
      load: percent(num(r.work_ahead), availableAhead),
      completed: num(r.completed),
      minutes: num(r.minutes),
      billableMinutes: num(r.billable),
      billableShare: percent(num(r.billable), num(r.minutes)),
      availableMinutes: available,
      utilisation: percent(num(r.minutes), available),
    };
    return ctx.money
      ? {
          ...row,
          billableValue: num(r.value),
          cost: num(r.cost),
          unratedMinutes: num(r.unrated),
          uncostedMinutes: num(r.uncosted),
        }
      : row;
  });
  const days = daysBetween(ctx.today, aheadTo);
  const heatMap = rows.map((r) => ({
    memberId: r.id,
    name: r.name,
    days: days.map((day) => {
      const free = ahead.get(r.id)?.[day] ?? 0;
      const work = due.get(`${r.id}|${day}`) ?? 0;
      return { day, workMinutes: work, freeMinutes: free, load: percent(work, free) };
    }),
  }));
  const first = raw[0];
  const totals = first
    ? {
        openTasks: num(first.t_open),
        overdue: num(first.t_overdue),
        workAheadMinutes: num(first.t_work_ahead),
        unbudgetedTasks: num(first.t_unbudgeted),
        completed: num(first.t_completed),
        minutes: num(first.t_minutes),
        billableMinutes: num(first.t_billable),
        billableShare: percent(num(first.t_billable), num(first.t_minutes)),
        ...(ctx.money
          ? {
              billableValue: num(first.t_value),
              cost: num(first.t_cost),
              unratedMinutes: num(first.t_unrated),
              uncostedMinutes: num(first.t_uncosted),
            }
          : {}),
      }
    : null;
  return {
    rows,
    total: first ? num(first.total) : 0,
    page: input.page,
    pageSize: input.pageSize,
    totals,
    heatMap,
    money: ctx.money,
    currency: ctx.currency,
    today: ctx.today,
  };
}

/** Budgeted minutes of open tasks due each day of the window, per member (each assignee's share). */
async function dueAhead(
  db: TExecutor,
  orgId: string,
  memberIds: string[],
  from: string,
  to: string,
  taskClient: SQL,
) {
  const out = new Map<string, number>();
  if (!memberIds.length) return out;
  const rows = rowsOf<{ member_id: string; day: string; minutes: number }>(
    await db.execute(sql`
      select ta.member_id, to_char(t.due_date, 'YYYY-MM-DD') as day,
        round(sum(t.budget_minutes::numeric / (select count(*) from task_assignees x
          where x.org_id = t.org_id and x.task_id = t.id)))::int as minutes
      from task_assignees ta join tasks t on t.org_id = ta.org_id and t.id = ta.task_id
      where ta.org_id = ${orgId} and ta.member_id in (${sql.join(
        memberIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and ta.due_date between ${from} and ${to} and t.status <> 'COMPLETED' and t.budget_minutes is not null ${taskClient}
      group by ta.member_id, t.due_date`),
  );
  for (const r of rows) out.set(`${r.member_id}|${r.day}`, num(r.minutes));
  return out;
}
