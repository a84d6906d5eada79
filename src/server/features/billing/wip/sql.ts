import { type SQL, sql } from 'drizzle-orm';

// The two questions work in progress asks of the database, as SQL every reader shares: which fixed
// fee periods are due and unbilled, and what a client's unbilled approved time is billed as.
//
// Periods follow src/domain/periods.ts (the projects' periods): monthly is the calendar month;
// quarters, halves and years count from the firm's fiscal-year start month; a one-time service has
// one period, its engagement's start day. A period is identified by its first day, which is what
// projects.period_start and invoice_lines.period_start hold.

/** Months per period of a frequency; 0 for one-time. */
const MONTHS = sql.raw(`case s.frequency when 'monthly' then 1 when 'quarterly' then 3
  when 'half_yearly' then 6 when 'yearly' then 12 else 0 end`);

/** The first day of the period of `months` (fiscal year from `fyMonth`) that holds `day`. */
const periodStartOf = (day: SQL, months: SQL, fyMonth: SQL) =>
  sql`(date_trunc('month', (${day})::timestamp)
    - make_interval(months => ((extract(month from ${day})::int - ${fyMonth} + 12) % 12) % greatest(${months}, 1)))::date`;

/** The firm's today, on its clock: `now` moves it in tests. */
const todayOf = (now: Date) => sql`(${now.toISOString()}::timestamptz at time zone o.time_zone)::date`;

export type TFeeFilter = {
  orgId?: string;
  clientId?: string;
  engagementId?: string;
  /** Limits the clients (the caller's visibility), on `cs.client_id`. */
  visibility?: SQL;
  /** Only these triggers (the recurring job bills period_start ones). */
  triggers?: readonly string[];
  /** Only periods whose project is this one (a completed project bills its own period). */
  projectId?: string;
  /**
   * Leaves out periods billed before on an invoice since voided: those wait in WIP for a person,
   * the automatic billing does not raise them again.
   */
  neverBilled?: boolean;
  /** Only periods that ended at most this many days ago (or not yet): the recurring job's reach. */
  recentDays?: number;
  now: Date;
};

/**
 * Fee periods due and not billed: one row per engagement and period, with what a line needs. A
 * period is due once it has started (period_start, manual) or once its project is completed
 * (project_complete); it is billed while a fee line that is not released names it.
 */
export function dueFeePeriods(f: TFeeFilter): SQL {
  const where: SQL[] = [sql`cs.billing_mode = 'fixed'`, sql`cs.fee > 0`];
  if (f.orgId) where.push(sql`cs.org_id = ${f.orgId}`);
  if (f.clientId) where.push(sql`cs.client_id = ${f.clientId}`);
  if (f.engagementId) where.push(sql`cs.id = ${f.engagementId}`);
  if (f.visibility) where.push(f.visibility);
  if (f.triggers)
    where.push(
      sql`cs.fee_trigger in (${sql.join(
        f.triggers.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  return sql`
    with eng as (
      select cs.org_id, cs.id, cs.client_id, cs.service_id, s.name as service_name, s.frequency,
             cs.fee::text as fee, cs.fee_trigger, s.tax_code, s.tax_rate_bp, cs.start_date,
             o.fiscal_year_start_month as fy_month, o.time_zone, ${MONTHS} as months,
             ${todayOf(f.now)} as today_day,
             -- Billing starts at bill_from (engagements older than billing: the month it arrived),
             -- never before 2000 whatever a start date says. A recent window starts its walk a
             -- year and a little before it: no period that ends within it starts earlier.
             greatest(coalesce(cs.bill_from, cs.start_date), '2000-01-01'::date
               ${f.recentDays === undefined ? sql`` : sql`, ${todayOf(f.now)} - ${f.recentDays + 400}::int`}) as from_day,
             -- Nothing is due after the engagement ends, the client is archived, or today.
             least(${todayOf(f.now)}, coalesce(cs.end_date, 'infinity'::date),
                   coalesce((c.archived_at at time zone o.time_zone)::date, 'infinity'::date)) as until_day
      from client_services cs
      join services s on s.org_id = cs.org_id and s.id = cs.service_id
      join clients c on c.org_id = cs.org_id and c.id = cs.client_id
      join orgs o on o.id = cs.org_id
      where ${sql.join(where, sql` and `)}
    ),
    periods as (
      select e.*, g::date as period_start,
             (g + make_interval(months => e.months) - interval '1 day')::date as period_end
      from eng e
      cross join lateral generate_series(
        ${periodStartOf(sql`e.from_day`, sql`e.months`, sql`e.fy_month`)}::timestamp,
        e.until_day::timestamp, make_interval(months => e.months)) g
      where e.months > 0
      union all
      select e.*, e.start_date, e.start_date from eng e
      where e.months = 0 and e.start_date >= e.from_day and e.start_date <= e.until_day
    )
    select p.org_id, p.id as engagement_id, p.client_id, p.service_id, p.service_name, p.frequency, p.fee,
           p.fee_trigger, p.tax_code, p.tax_rate_bp, p.fy_month, p.time_zone, p.period_start::text as period_start,
           p.period_end::text as period_end, pr.id as project_id, pr.name as project_name
    from periods p
    left join lateral (
      select pr.id, pr.name, pr.status from projects pr
      where pr.org_id = p.org_id and pr.client_service_id = p.id and pr.period_start = p.period_start
      order by pr.created_at limit 1
    ) pr on true
    where not exists (
        select 1 from invoice_lines il
        where il.org_id = p.org_id and il.engagement_id = p.id and il.period_start = p.period_start
          and il.kind = 'fee' and not il.released)
      and (p.fee_trigger <> 'project_complete' or pr.status = 'COMPLETED')
      ${f.projectId ? sql`and pr.id = ${f.projectId}` : sql``}
      ${f.recentDays === undefined ? sql`` : sql`and p.period_end >= p.today_day - ${f.recentDays}::int`}
      ${
        f.neverBilled
          ? sql`and not exists (select 1 from invoice_lines il
                  where il.org_id = p.org_id and il.engagement_id = p.id and il.period_start = p.period_start
                    and il.kind = 'fee')`
          : sql``
      }`;
}

export type TFeePeriodRow = {
  org_id: string;
  engagement_id: string;
  client_id: string;
  service_id: string;
  service_name: string;
  frequency: string;
  fee: string;
  fee_trigger: string;
  tax_code: string;
  tax_rate_bp: number | null;
  fy_month: number;
  time_zone: string;
  period_start: string;
  period_end: string;
  project_id: string | null;
  project_name: string | null;
};

export type TTimeFilter = { orgId: string; clientId?: string; visibility?: SQL; ids?: readonly string[] };

/**
 * A client's approved billable time not yet on an invoice, each entry with the engagement it falls
 * under and how that engagement is billed: hourly (or no engagement) is billable at the entry's
 * frozen rate; a fixed fee covers it (it counts in that fee period's standard value, and is linked
 * to the fee's line when the period is billed); "not billed" leaves it out. The engagement is its
 * project's, else the client's engagement of its service running on its day.
 */
export function unbilledTime(f: TTimeFilter): SQL {
  const where: SQL[] = [
    sql`te.org_id = ${f.orgId}`,
    sql`te.billable`,
    sql`te.status = 'approved'`,
    sql`te.invoice_line_id is null`,
    sql`te.client_id is not null`,
  ];
  if (f.clientId) where.push(sql`te.client_id = ${f.clientId}`);
  if (f.visibility) where.push(f.visibility);
  if (f.ids)
    where.push(
      sql`te.id in (${sql.join(
        f.ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  return sql`
    select te.org_id, te.id, te.client_id, te.member_id, te.date::text as date, te.minutes, te.bill_rate, te.note,
           te.project_id, te.task_id, te.service_id,
           round(te.minutes::numeric * coalesce(te.bill_rate, 0) / 60)::bigint as value,
           e.id as engagement_id, coalesce(e.billing_mode, 'hourly') as mode,
           -- The fee period it falls in: its project's, else the one holding its day.
           case when e.id is null then null
                when e.months = 0 then e.start_date
                when pr.client_service_id = e.id and pr.period_start is not null then pr.period_start
                else ${periodStartOf(sql`te.date`, sql`e.months`, sql`e.fy_month`)} end::text as period_start,
           e.first_period::text as first_period
    from timesheet_entries te
    -- By primary key, per entry (the limit keeps it a lookup): as a join, the planner hashed every
    -- project of the firm for one client's few hundred entries.
    left join lateral (
      select pr.client_service_id, pr.period_start from projects pr
      where pr.org_id = te.org_id and pr.id = te.project_id limit 1
    ) pr on true
    left join lateral (
      select cs.id, cs.billing_mode, cs.start_date, ${MONTHS} as months, o.fiscal_year_start_month as fy_month,
             case when ${MONTHS} = 0 then greatest(coalesce(cs.bill_from, cs.start_date), '2000-01-01'::date)
                  else ${periodStartOf(
                    sql`greatest(coalesce(cs.bill_from, cs.start_date), '2000-01-01'::date)`,
                    MONTHS,
                    sql`o.fiscal_year_start_month`,
                  )} end as first_period
      from client_services cs
      join services s on s.org_id = cs.org_id and s.id = cs.service_id
      join orgs o on o.id = cs.org_id
      where cs.org_id = te.org_id and cs.client_id = te.client_id
        and case when pr.client_service_id is not null then cs.id = pr.client_service_id
                 else cs.service_id = te.service_id and cs.start_date <= te.date
                      and (cs.end_date is null or cs.end_date >= te.date) end
      order by cs.start_date desc, cs.id
      limit 1
    ) e on true
    where ${sql.join(where, sql` and `)}`;
}

export type TTimeRow = {
  org_id: string;
  id: string;
  client_id: string;
  member_id: string;
  date: string;
  minutes: number;
  bill_rate: number | null;
  note: string;
  project_id: string | null;
  task_id: string | null;
  service_id: string | null;
  value: string | number;
  engagement_id: string | null;
  mode: 'hourly' | 'fixed' | 'none';
  period_start: string | null;
  first_period: string | null;
};

/**
 * Time a fixed fee covers is shown (and linked to the fee's line) only while its period is unbilled
 * and billing has reached it: covered time of a period billed already, or of one before bill_from,
 * is not work in progress.
 */
export function coveredTimeOpen(time: SQL): SQL {
  return sql`select t.* from (${time}) t
    where t.mode = 'hourly'
       or (t.mode = 'fixed' and t.period_start >= t.first_period and not exists (
             select 1 from invoice_lines il
             where il.org_id = t.org_id and il.engagement_id = t.engagement_id and il.period_start = t.period_start::date
               and il.kind = 'fee' and not il.released))`;
}
