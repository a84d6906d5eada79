import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { OPEN_STATUSES } from '../../../domain/billing/constants';
import {
  BILLING_DIMENSION_FIGURES,
  percent,
  type TBillingFigure,
  type TBillingReportDimension,
  type ZBillingSummary,
} from '../../../domain/reports';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { billingContext } from '../billing';
import { coveredClient, num, orderBy, reportContext } from './scope';

// The billing summary (issue 35): what was billed and collected in the period, what is owed and
// unbilled today, and how much of the work's standard value the bills realised. Money is in the
// currency's minor unit, over the clients the report covers (the caller's and the filters').
//
// - Billed: issued invoices' totals (tax included) by issue date, less issued credit notes; drafts
//   and void invoices are not billed. By service or project: the lines' amounts and tax (before an
//   invoice's round-off), credit-note lines subtracted.
// - Collected: what receipts paid of invoices (their live allocations, TDS and bank charges
//   included), by the payment's date. Money received and not allocated is the client's credit.
// - Outstanding and overdue: open invoices' balances today (overdue: due before today).
// - Work in progress, today: approved billable time on no invoice, at its frozen rate; fixed fees of
//   periods begun since the engagement's billing start and on no invoice (a "when the project
//   completes" fee once that period's project is complete); disbursements on no invoice. Work on a
//   draft invoice is in neither WIP nor billed: it is on its way to a bill.
// - Realization: what issued invoices' lines that carry a standard value (time, fees, disbursements)
//   were billed at, against that value; by member, each time entry's share of its line against its
//   minutes at its rate. Free-text lines and credit notes have no standard value: they stay out.

type TBy = TBillingReportDimension | 'all';
type TInput = z.output<typeof ZBillingSummary>;

/** Where a source's rows name the things a row can be keyed by (SQL over the source's aliases). */
type TColumns = { client: string; service?: string; project?: string; member?: string; day?: string };

/**
 * A source's key for the dimension, as text. A source without the column (a payment has no service)
 * has nothing to say about that dimension: null, left out; a row whose column is empty (time on no
 * project) counts under "none".
 */
function keyOf(by: TBy, c: TColumns): SQL | null {
  const raw = (expression: string | undefined) => (expression ? sql.raw(`(${expression})::text`) : null);
  switch (by) {
    case 'all':
      return sql`''`;
    case 'client':
      return raw(c.client);
    case 'partner':
      return raw(`select pt.member_id from pt where pt.client_id = ${c.client}`);
    case 'service':
      return raw(c.service);
    case 'project':
      return raw(c.project);
    case 'member':
      return raw(c.member);
    case 'month':
      return c.day ? sql.raw(`to_char(${c.day}, 'YYYY-MM')`) : null;
  }
}

const FIGURE_COLUMNS = [
  'billed',
  'collected',
  'outstanding',
  'overdue',
  'wip_time',
  'wip_fee',
  'wip_disb',
  'standard',
  'measured',
] as const;
type TFigureColumn = (typeof FIGURE_COLUMNS)[number];

/** One source's rows as the facts' columns: its own figures, zero for the rest. */
function fact(key: SQL, figures: Partial<Record<TFigureColumn, SQL>>, from: SQL): SQL {
  const columns = FIGURE_COLUMNS.map((name) => sql`${figures[name] ?? sql`0`}::numeric as ${sql.raw(name)}`);
  return sql`select ${key} as k, ${sql.join(columns, sql`, `)} ${from}`;
}

const OPEN_LIST = sql.raw(OPEN_STATUSES.map((s) => `'${s}'`).join(', '));

/**
 * Every fact the report sums, each keyed for the dimension: a union of what the invoices, lines,
 * allocations, time, disbursements and fees say. The covered clients' condition goes on each.
 */
function facts(
  by: TBy,
  ctx: { orgId: string; today: string; digits: number; fiscal: number },
  input: TInput,
  covered: (column: SQL) => SQL,
): SQL {
  const o = ctx.orgId;
  const issued = sql`i.org_id = ${o} and i.status not in ('draft', 'void') and i.issue_date between ${input.from} and ${input.to} and ${covered(sql`i.client_id`)}`;
  const sign = sql`case when i.kind = 'credit_note' then -1 else 1 end`;
  const projectJoin = (column: string) =>
    sql`left join projects p on p.org_id = ${o} and p.id = ${sql.raw(column)}`;
  const parts: SQL[] = [];
  const add = (columns: TColumns, build: (key: SQL) => SQL) => {
    const key = keyOf(by, columns);
    if (key) parts.push(build(key));
  };

  if (by === 'service' || by === 'project') {
    add(
      { client: 'i.client_id', service: 'coalesce(l.service_id, p.service_id)', project: 'l.project_id' },
      (k) =>
        fact(
          k,
          { billed: sql`${sign} * (l.amount + l.cgst + l.sgst + l.igst + l.other_tax)` },
          sql`from invoice_lines l join invoices i on i.org_id = l.org_id and i.id = l.invoice_id
          ${projectJoin('l.project_id')} where l.org_id = ${o} and ${issued}`,
        ),
    );
  } else if (by !== 'member') {
    add({ client: 'i.client_id', day: 'i.issue_date' }, (k) =>
      fact(k, { billed: sql`${sign} * i.total` }, sql`from invoices i where ${issued}`),
    );
  }

  add({ client: 'a.client_id', day: 'pay.received_on' }, (k) =>
    fact(
      k,
      { collected: sql`a.amount` },
      sql`from allocations a join payments pay on pay.org_id = a.org_id and pay.id = a.payment_id
        where a.org_id = ${o} and a.reversed_at is null and pay.reversed_at is null and pay.kind = 'receipt'
          and pay.received_on between ${input.from} and ${input.to} and ${covered(sql`a.client_id`)}`,
    ),
  );

  add({ client: 'i.client_id' }, (k) =>
    fact(
      k,
      {
        outstanding: sql`i.balance`,
        overdue: sql`case when i.due_date < ${ctx.today}::date then i.balance else 0 end`,
      },
      sql`from invoices i where i.org_id = ${o} and i.kind = 'invoice' and i.status in (${OPEN_LIST})
        and ${covered(sql`i.client_id`)}`,
    ),
  );

  if (by === 'member') {
    add({ client: 'i.client_id', member: 'te.member_id' }, (k) =>
      fact(
        k,
        {
          standard: sql`round(te.minutes::numeric * coalesce(te.bill_rate, 0) / 60)`,
          measured: sql`coalesce(te.billed_amount, 0)`,
        },
        sql`from timesheet_entries te join invoice_lines l on l.org_id = te.org_id and l.id = te.invoice_line_id
          join invoices i on i.org_id = l.org_id and i.id = l.invoice_id
          where te.org_id = ${o} and i.kind = 'invoice' and ${issued}`,
      ),
    );
  } else {
    add(
      {
        client: 'i.client_id',
        service: 'coalesce(l.service_id, p.service_id)',
        project: 'l.project_id',
        day: 'i.issue_date',
      },
      (k) =>
        fact(
          k,
          { standard: sql`l.standard_value`, measured: sql`l.amount` },
          sql`from invoice_lines l join invoices i on i.org_id = l.org_id and i.id = l.invoice_id
            ${projectJoin('l.project_id')}
            where l.org_id = ${o} and i.kind = 'invoice' and l.standard_value > 0 and ${issued}`,
        ),
    );
  }

  add(
    {
      client: 'te.client_id',
      service: 'coalesce(te.service_id, p.service_id)',
      project: 'te.project_id',
      member: 'te.member_id',
    },
    (k) =>
      fact(
        k,
        { wip_time: sql`round(te.minutes::numeric * coalesce(te.bill_rate, 0) / 60)` },
        sql`from timesheet_entries te ${projectJoin('te.project_id')}
          where te.org_id = ${o} and te.billable and te.status = 'approved' and te.invoice_line_id is null
            and te.client_id is not null and ${covered(sql`te.client_id`)}`,
      ),
  );

  if (by !== 'member') {
    add({ client: 'd.client_id', service: 'p.service_id', project: 'd.project_id' }, (k) =>
      fact(
        k,
        { wip_disb: sql`d.amount` },
        sql`from disbursements d ${projectJoin('d.project_id')}
          where d.org_id = ${o} and d.invoice_line_id is null and ${covered(sql`d.client_id`)}`,
      ),
    );
    // A fee is the engagement's, not a project's: by project it counts under "no project".
    add({ client: 'e.client_id', service: 'e.service_id', project: 'null::uuid' }, (k) =>
      fact(k, { wip_fee: sql`round(e.fee * ${10 ** ctx.digits})` }, feesDue(ctx, covered)),
    );
  }

  // Every month of the period has a row, money or not, so the chart's months are all there.
  if (by === 'month') {
    parts.push(
      fact(
        sql`to_char(m, 'YYYY-MM')`,
        {},
        sql`from generate_series(date_trunc('month', ${input.from}::date), ${input.to}::date, interval '1 month') m`,
      ),
    );
  }
  return sql.join(parts, sql` union all `);
}

/**
 * The FROM and WHERE of the fixed fees due today (engagement `e`, one row per period `ps`): each
 * period of the engagement's frequency from the one holding its billing start (its start, or
 * `bill_from` when later) through today and its end, on no invoice line yet.
 */
function feesDue(ctx: { orgId: string; today: string; fiscal: number }, covered: (column: SQL) => SQL): SQL {
  const o = ctx.orgId;
  const size = sql`(case s.frequency when 'monthly' then 1 when 'quarterly' then 3 when 'half_yearly' then 6 else 12 end)`;
  const begin = sql`date_trunc('month', greatest(e.start_date, coalesce(e.bill_from, e.start_date)))`;
  // Periods line up on the fiscal year's start month: step back to the start of the one holding `begin`.
  const first = sql`(${begin} - make_interval(months => ((extract(month from ${begin})::int - ${ctx.fiscal} + 12) % ${size})))`;
  const last = sql`least(${ctx.today}::date, coalesce(e.end_date, ${ctx.today}::date))`;
  return sql`from client_services e
    join services s on s.org_id = e.org_id and s.id = e.service_id
    cross join lateral (
      select e.start_date as ps where s.frequency = 'one_time'
        and e.start_date <= ${ctx.today}::date and e.start_date >= coalesce(e.bill_from, e.start_date)
      union all
      select g::date from generate_series(${first}, ${last}::timestamp, make_interval(months => ${size})) g
      where s.frequency <> 'one_time'
    ) per
    where e.org_id = ${o} and e.billing_mode = 'fixed' and e.fee > 0 and ${covered(sql`e.client_id`)}
      and not exists (select 1 from invoice_lines fl where fl.org_id = e.org_id and fl.engagement_id = e.id
        and fl.kind = 'fee' and fl.period_start = per.ps and not fl.released)
      and (e.fee_trigger <> 'project_complete' or exists (select 1 from projects fp where fp.org_id = e.org_id
        and fp.client_service_id = e.id and fp.period_start = per.ps and fp.status = 'COMPLETED'))`;
}

/** The name of a row's key, and a second line where it helps (a project's client). */
function names(by: TBillingReportDimension, orgId: string): { join: SQL; name: SQL; detail: SQL } {
  const person = (alias: string) => sql.raw(`trim(${alias}.first_name || ' ' || ${alias}.last_name)`);
  switch (by) {
    case 'client':
      return {
        join: sql`left join clients n on n.org_id = ${orgId} and n.id = r.k::uuid`,
        name: sql`n.name`,
        detail: sql`n.code`,
      };
    case 'partner':
    case 'member':
      return {
        join: sql`left join members n on n.org_id = ${orgId} and n.id = r.k::uuid`,
        name: person('n'),
        detail: sql`null::text`,
      };
    case 'service':
      return {
        join: sql`left join services n on n.org_id = ${orgId} and n.id = r.k::uuid`,
        name: sql`n.name`,
        detail: sql`n.code`,
      };
    case 'project':
      return {
        join: sql`left join projects n on n.org_id = ${orgId} and n.id = r.k::uuid
          left join clients nc on nc.org_id = n.org_id and nc.id = n.client_id`,
        name: sql`n.name`,
        detail: sql`nc.name`,
      };
    case 'month':
      return { join: sql``, name: sql`r.k`, detail: sql`null::text` };
  }
}

const SORTS: Record<TInput['sort'], SQL> = {
  // "None" (no service, no partner) last, whichever way the names run.
  name: sql`(k is null), sort_name`,
  billed: sql`billed`,
  collected: sql`collected`,
  outstanding: sql`outstanding`,
  overdue: sql`overdue`,
  wip: sql`wip`,
  standard: sql`standard`,
  realization: sql`case when standard > 0 then measured / standard end`,
};

export type TBillingFigures = {
  billed: number;
  collected: number;
  outstanding: number;
  overdue: number;
  wip: number;
  wipTime: number;
  wipFees: number;
  wipDisbursements: number;
  standard: number;
  /** What the lines with a standard value were billed at. */
  measured: number;
  /** measured ÷ standard, a whole percentage; null with no standard value. */
  realization: number | null;
};
export type TBillingRow = TBillingFigures & {
  /** The client, service, partner, member or project; null for "none" (no partner); 'YYYY-MM' for a month. */
  id: string | null;
  name: string;
  detail: string | null;
};

const figuresOf = (r: Record<string, unknown>): TBillingFigures => {
  const wipTime = num(r.wip_time);
  const wipFees = num(r.wip_fee);
  const wipDisbursements = num(r.wip_disb);
  return {
    billed: num(r.billed),
    collected: num(r.collected),
    outstanding: num(r.outstanding),
    overdue: num(r.overdue),
    wip: wipTime + wipFees + wipDisbursements,
    wipTime,
    wipFees,
    wipDisbursements,
    standard: num(r.standard),
    measured: num(r.measured),
    realization: percent(num(r.measured), num(r.standard)),
  };
};

function grouped(
  by: TBy,
  ctx: { orgId: string; today: string; digits: number; fiscal: number },
  input: TInput,
  covered: (column: SQL) => SQL,
) {
  const sums = FIGURE_COLUMNS.map((c) => sql`coalesce(sum(${sql.raw(c)}), 0)::float8 as ${sql.raw(c)}`);
  const partners = sql`pt as materialized (
    select distinct on (ct.client_id) ct.client_id, ct.member_id from client_team ct
    where ct.org_id = ${ctx.orgId} and ct.responsibility = 'Partner in charge'
    order by ct.client_id, ct.created_at, ct.member_id)`;
  return sql`with ${partners}, f as (${facts(by, ctx, input, covered)}),
    r as (select k, ${sql.join(sums, sql`, `)} from f group by k)`;
}

/**
 * The report: totals, the period's months (the chart) and one page of rows by the chosen
 * dimension, sorted on the server.
 */
export async function billingSummary(db: TExecutor, scope: TScope, input: TInput) {
  const [report, billing] = await Promise.all([
    reportContext(db, scope, input),
    billingContext(db, scope.orgId),
  ]);
  const ctx = {
    orgId: scope.orgId,
    today: report.today,
    digits: billing.digits,
    fiscal: report.fiscalYearStartMonth,
  };
  const covered = (column: SQL) => coveredClient(report, scope, input, column);
  const figures = BILLING_DIMENSION_FIGURES[input.by];
  const sort = input.sort === 'name' || figures.includes(input.sort as TBillingFigure) ? input.sort : 'name';
  const n = names(input.by, scope.orgId);
  const page = sql`${grouped(input.by, ctx, input, covered)},
    named as (select r.*, ${n.name} as name, ${n.detail} as detail,
        coalesce(${n.name}, '') as sort_name, r.wip_time + r.wip_fee + r.wip_disb as wip
      from r ${n.join}),
    pg as (select named.*, count(*) over () as total,
        row_number() over (order by ${orderBy(SORTS[sort], input.direction, sql`(k is null) asc, sort_name asc, k asc`)}) as rn
      from named)
    select * from pg where rn > ${(input.page - 1) * input.pageSize} and rn <= ${input.page * input.pageSize}
    order by rn`;
  const all = sql`${grouped('all', ctx, input, covered)} select * from r`;
  const monthly = sql`${grouped('month', ctx, input, covered)} select * from r order by k`;
  const [pageRows, totalRows, monthRows] = await Promise.all([
    db.execute(page).then((res) => rowsOf<Record<string, unknown>>(res)),
    db.execute(all).then((res) => rowsOf<Record<string, unknown>>(res)),
    db.execute(monthly).then((res) => rowsOf<Record<string, unknown>>(res)),
  ]);
  const rows: TBillingRow[] = pageRows.map((r) => ({
    id: r.k === null || r.k === undefined ? null : String(r.k),
    name: r.name === null || r.name === undefined ? '' : String(r.name),
    detail: r.detail === null || r.detail === undefined ? null : String(r.detail),
    ...figuresOf(r),
  }));
  const zero = figuresOf({});
  return {
    by: input.by,
    figures,
    rows,
    total: num(pageRows[0]?.total),
    page: input.page,
    pageSize: input.pageSize,
    totals: totalRows[0] ? figuresOf(totalRows[0]) : zero,
    months: monthRows.map((r) => ({ month: String(r.k), ...figuresOf(r) })),
    currency: report.currency,
    currencyDigits: billing.digits,
    today: report.today,
  };
}
