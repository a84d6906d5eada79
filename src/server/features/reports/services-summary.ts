import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { periodsBetween } from '../../../domain/periods';
import { percent, type ZNotStarted, type ZServicesSummary } from '../../../domain/reports';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { services } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { coveredClient, num, orderBy, reportContext, type TReportContext } from './scope';

export type TServiceSummaryRow = {
  id: string;
  name: string;
  code: string;
  frequency: string;
  engagements: number;
  /** Engagement-periods of the range: the projects the engagements call for. */
  expected: number;
  created: number;
  completed: number;
  onTime: number;
  /** Completed after the due date, or open past it. */
  late: number;
  /** Engaged for a period of the range with no project for it: work never started. */
  notStarted: number;
  /** Days from a project's creation to its completion, on average (null: none completed). */
  avgCycleDays: number | null;
  budgetMinutes: number;
  actualMinutes: number;
};

const SORTS: Record<z.output<typeof ZServicesSummary>['sort'], SQL> = {
  name: sql`name`,
  engagements: sql`engagements`,
  expected: sql`expected`,
  completed: sql`completed`,
  late: sql`late`,
  notStarted: sql`not_started`,
};

/**
 * The periods of the range for each recurring service, as arrays for unnest(): the period rules
 * (fiscal quarters, halves, years) live in domain/periods.ts, and the services are a catalogue of
 * tens, so they are worked out here and the query joins them like a table.
 */
async function servicePeriods(
  db: TExecutor,
  ctx: TReportContext,
  from: string,
  to: string,
  serviceId?: string,
) {
  const list = await db
    .select({ id: services.id, frequency: services.frequency })
    .from(services)
    .where(
      and(
        eq(services.orgId, ctx.orgId),
        isNull(services.archivedAt),
        serviceId ? eq(services.id, serviceId) : undefined,
      ),
    );
  const cols = { ids: [] as string[], keys: [] as string[], starts: [] as string[], ends: [] as string[] };
  for (const s of list) {
    if (s.frequency === 'one_time') continue;
    for (const p of periodsBetween(s.frequency, ctx.fiscalYearStartMonth, from, to)) {
      cols.ids.push(s.id);
      cols.keys.push(p.key);
      cols.starts.push(p.start);
      cols.ends.push(p.end);
    }
  }
  return cols;
}

const arr = (values: string[], type: 'uuid' | 'text' | 'date') =>
  sql`${`{${values.map((v) => `"${v}"`).join(',')}}`}::${sql.raw(type)}[]`;

/** The periods of the range per recurring service (servicePeriods), as a table. */
const periodsCte = (sp: Awaited<ReturnType<typeof servicePeriods>>) => sql`
    sp as (
      select * from unnest(${arr(sp.ids, 'uuid')}, ${arr(sp.keys, 'text')}, ${arr(sp.starts, 'date')}, ${arr(sp.ends, 'date')})
        as sp(service_id, period_key, period_start, period_end)
    )`;

/**
 * The report's projects, read once and folded as they are read: each period's (archived too: they
 * count as started) as index-only lookups of projects_service_period_idx, then each service's
 * one-time ones due in the range. One OR of the two was a sequential scan of every project; reading
 * the periods' projects twice, or keeping them in a CTE that two parts read (68,000 rows spilled to
 * disk), was most of the report. OFFSET 0 keeps the lookups per period: the covered-clients test is
 * costed once per lookup, and priced so the planner chose to scan and hash every project instead.
 * Grouped by service and engagement service (the same but for a project moved to another
 * service), which the figures and the started count are then summed by.
 */
function projectFigures(ctx: TReportContext, scope: TScope, input: z.output<typeof ZServicesSummary>) {
  const o = scope.orgId;
  const projectsWhere = (which: SQL) => sql`
      select p.id, p.service_id, p.client_service_id, p.period_key, p.status, p.due_date, p.completed_date,
        p.created_at, p.budget_minutes, p.archived_at, p.engagement_service_id, p.engagement_start, p.engagement_end
      from projects p
      where p.org_id = ${o} and ${coveredClient(ctx, scope, input, sql`p.client_id`)}
        and ${which} ${input.serviceId ? sql`and p.service_id = ${input.serviceId}` : sql``}`;
  const live = sql`x.archived_at is null`;
  const done = sql`(x.completed_date at time zone ${ctx.timeZone})::date`;
  return sql`
    x as (
      select p.* from sp cross join lateral (
        ${projectsWhere(sql`p.service_id = sp.service_id and p.period_key = sp.period_key`)} offset 0
      ) p
      union all
      select p.* from services s cross join lateral (
        ${projectsWhere(sql`p.service_id = s.id and p.period_key = 'once' and p.archived_at is null and p.due_date between ${input.from} and ${input.to}`)}
        offset 0
      ) p
      where s.org_id = ${o}
    ),
    g as (
      select x.service_id, x.engagement_service_id,
        count(*) filter (where ${live})::int as created,
        count(*) filter (where ${live} and x.status = 'COMPLETED')::int as completed,
        count(*) filter (where ${live} and x.completed_date is not null and (x.due_date is null or ${done} <= x.due_date))::int as on_time,
        count(*) filter (where ${live} and ((x.completed_date is not null and ${done} > x.due_date)
          or (x.completed_date is null and x.due_date < ${ctx.today}::date)))::int as late,
        sum(extract(epoch from x.completed_date - x.created_at) / 86400) filter (where ${live} and x.completed_date is not null) as cycle_days,
        count(*) filter (where ${live} and x.completed_date is not null)::int as cycle_n,
        coalesce(sum(x.budget_minutes) filter (where ${live}), 0)::int as budget,
        array_agg(x.id) filter (where ${live} and x.budget_minutes is not null) as budgeted,
        -- The expected pairs that have a project (archived or not), counted from the projects'
        -- side (one per engagement and period: projects_engagement_period_key), each checked
        -- against its engagement's service and dates as the project copies them (0038): joining
        -- each project to its engagement was most of this report. A generated project's client is
        -- its engagement's, and neither moves.
        count(*) filter (where x.client_service_id is not null and x.engagement_start <= ep.period_end
          and (x.engagement_end is null or x.engagement_end >= ep.period_start))::int as started
      from x left join sp ep on ep.service_id = x.engagement_service_id and ep.period_key = x.period_key
      group by x.service_id, x.engagement_service_id
    ),
    pa as (
      select g.service_id, sum(g.created)::int as created, sum(g.completed)::int as completed,
        sum(g.on_time)::int as on_time, sum(g.late)::int as late,
        sum(g.cycle_days) / nullif(sum(g.cycle_n), 0) as cycle, sum(g.budget)::int as budget
      from g group by g.service_id
    ),
    started as (
      select g.engagement_service_id as service_id, sum(g.started)::int as started
      from g where g.engagement_service_id is not null group by g.engagement_service_id
    ),
    act as (
      select g.service_id, coalesce(sum(te.minutes), 0)::int as actual
      from g cross join unnest(g.budgeted) b(id)
        join timesheet_entries te on te.org_id = ${o} and te.project_id = b.id
      group by g.service_id
    )`;
}

export async function servicesSummary(
  db: TExecutor,
  scope: TScope,
  input: z.output<typeof ZServicesSummary>,
) {
  const ctx = await reportContext(db, scope, input);
  const o = scope.orgId;
  const sp = await servicePeriods(db, ctx, input.from, input.to, input.serviceId);
  const result = await db.execute(sql`
    with ${periodsCte(sp)}, ${projectFigures(ctx, scope, input)},
    s as (
      select s.id, s.name, s.code, s.frequency from services s
      where s.org_id = ${o} and s.archived_at is null ${input.serviceId ? sql`and s.id = ${input.serviceId}` : sql``}
    ),
    cs_dates as (
      -- The covered engagements by service and dates: a firm's engagements share few dates, so
      -- matching dates to periods is a few thousand rows, where matching each engagement to its
      -- periods was 150,000.
      select cs.service_id, cs.start_date, cs.end_date, count(*)::int as n
      from client_services cs
      where cs.org_id = ${o} and cs.service_id in (select service_id from sp)
        and ${coveredClient(ctx, scope, input, sql`cs.client_id`)}
      group by cs.service_id, cs.start_date, cs.end_date
    ),
    e as (
      select sp.service_id, sum(d.n)::int as expected
      from cs_dates d join sp on sp.service_id = d.service_id
        and d.start_date <= sp.period_end and (d.end_date is null or d.end_date >= sp.period_start)
      group by sp.service_id
    ),
    eng as (
      -- Engagements covering any period of the range: a service's periods follow one another, so
      -- that is covering their span (a DISTINCT over the expected pairs sorted 150,000 of them).
      select d.service_id, sum(d.n)::int as engagements
      from cs_dates d join (select service_id, min(period_start) as first_day, max(period_end) as last_day
        from sp group by service_id) span on span.service_id = d.service_id
      where d.start_date <= span.last_day and (d.end_date is null or d.end_date >= span.first_day)
      group by d.service_id
    ),
    r as (
      select s.id, s.name, s.code, s.frequency, coalesce(eng.engagements, 0) as engagements,
        case when s.frequency = 'one_time' then coalesce(pa.created, 0) else coalesce(e.expected, 0) end as expected,
        coalesce(pa.created, 0) as created, coalesce(pa.completed, 0) as completed, coalesce(pa.on_time, 0) as on_time,
        coalesce(pa.late, 0) as late,
        coalesce(e.expected, 0) - coalesce(started.started, 0) as not_started, pa.cycle,
        coalesce(pa.budget, 0) as budget, coalesce(act.actual, 0) as actual
      from s left join e on e.service_id = s.id left join started on started.service_id = s.id
        left join eng on eng.service_id = s.id
        left join pa on pa.service_id = s.id left join act on act.service_id = s.id
    ),
    pg as (
      select r.*, count(*) over () as total, sum(engagements) over () as t_engagements, sum(expected) over () as t_expected,
        sum(created) over () as t_created, sum(completed) over () as t_completed, sum(on_time) over () as t_on_time,
        sum(late) over () as t_late, sum(not_started) over () as t_not_started, sum(budget) over () as t_budget,
        sum(actual) over () as t_actual,
        row_number() over (order by ${orderBy(SORTS[input.sort], input.direction, sql`name asc, id asc`)}) as rn
      from r
    )
    select * from pg where rn > ${(input.page - 1) * input.pageSize} and rn <= ${input.page * input.pageSize}
    order by rn`);
  const raw = rowsOf<Record<string, unknown>>(result);
  const rows: TServiceSummaryRow[] = raw.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    code: String(r.code),
    frequency: String(r.frequency),
    engagements: num(r.engagements),
    expected: num(r.expected),
    created: num(r.created),
    completed: num(r.completed),
    onTime: num(r.on_time),
    late: num(r.late),
    notStarted: num(r.not_started),
    avgCycleDays: r.cycle === null || r.cycle === undefined ? null : Math.round(Number(r.cycle) * 10) / 10,
    budgetMinutes: num(r.budget),
    actualMinutes: num(r.actual),
  }));
  const first = raw[0];
  const totals = first
    ? {
        engagements: num(first.t_engagements),
        expected: num(first.t_expected),
        created: num(first.t_created),
        completed: num(first.t_completed),
        onTime: num(first.t_on_time),
        onTimeShare: percent(num(first.t_on_time), num(first.t_completed)),
        late: num(first.t_late),
        notStarted: num(first.t_not_started),
        budgetMinutes: num(first.t_budget),
        actualMinutes: num(first.t_actual),
      }
    : null;
  return {
    rows,
    total: first ? num(first.total) : 0,
    page: input.page,
    pageSize: input.pageSize,
    totals,
    today: ctx.today,
  };
}

/** ★ The clients engaged for the service with no project for a period of the range, paged. */
export async function notStarted(db: TExecutor, scope: TScope, input: z.output<typeof ZNotStarted>) {
  const ctx = await reportContext(db, scope, input);
  const o = scope.orgId;
  const sp = await servicePeriods(db, ctx, input.from, input.to, input.serviceId);
  const result = await db.execute(sql`
    with ${periodsCte(sp)},
    ex as (
      select cs.id as cs_id, cs.client_id, sp.period_key, sp.period_start, sp.period_end
      from client_services cs join sp on sp.service_id = cs.service_id
        and cs.start_date <= sp.period_end and (cs.end_date is null or cs.end_date >= sp.period_start)
      where cs.org_id = ${o} and ${coveredClient(ctx, scope, input, sql`cs.client_id`)}
    ),
    m as (
      select ex.client_id, ex.period_key, ex.period_start, ex.period_end from ex
      where not exists (select 1 from projects p where p.org_id = ${o}
        and p.client_service_id = ex.cs_id and p.period_key = ex.period_key)
    )
    select m.client_id, c.code, c.name, m.period_key, to_char(m.period_start, 'YYYY-MM-DD') as period_start,
      to_char(m.period_end, 'YYYY-MM-DD') as period_end, count(*) over () as total
    from m join clients c on c.org_id = ${o} and c.id = m.client_id
    order by m.period_start ${sql.raw(input.direction === 'desc' ? 'desc' : 'asc')}, c.name, c.id
    limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`);
  const raw = rowsOf<Record<string, unknown>>(result);
  return {
    rows: raw.map((r) => ({
      clientId: String(r.client_id),
      code: String(r.code),
      name: String(r.name),
      periodKey: String(r.period_key),
      periodStart: String(r.period_start),
      periodEnd: String(r.period_end),
    })),
    total: raw[0] ? num(raw[0].total) : 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
