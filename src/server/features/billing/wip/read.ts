import { type SQL, sql } from 'drizzle-orm';
import type { TDisbursementKind, TFeeTrigger } from '../../../../domain/billing/constants';
import { feeMinor, type TWipListQuery } from '../../../../domain/billing/wip';
import type { TPage } from '../../../../domain/pagination';
import { periodContaining, projectNameFor, type TRecurringFrequency } from '../../../../domain/periods';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { escapeLike, rowsOf } from '../../../db/sql';
import { clientVisibility, visibleClient } from '../../clients';
import { billingContext } from '../context';
import { coveredTimeOpen, dueFeePeriods, type TFeePeriodRow, type TTimeRow, unbilledTime } from './sql';

// What the WIP screens read: the firm's clients with work in progress, and one client's items.

export type TWipListRow = {
  client: { id: string; name: string; code: string };
  time: { minutes: number; value: number; unrated: number };
  covered: { minutes: number; value: number };
  fees: { count: number; value: number };
  disbursements: { count: number; value: number };
  /** What can be billed now: time, fees due and disbursements. */
  total: number;
};
export type TWipTotals = Omit<TWipListRow, 'client'> & { clients: number };

const num = (v: unknown) => Number(v ?? 0);

const ORDER: Record<TWipListQuery['sort'], string> = {
  value: 'total',
  client: 'name',
  time: 'time_value',
  fees: 'fee_value',
  disbursements: 'disb_value',
};

/** Per client, a page at a time, by value; with the firm's totals over every client listed. */
export async function wipList(
  db: TExecutor,
  scope: TScope,
  input: TWipListQuery,
  now = new Date(),
): Promise<TPage<TWipListRow> & { totals: TWipTotals }> {
  const ctx = await billingContext(db, scope.orgId);
  const scale = 10 ** ctx.digits;
  const time = coveredTimeOpen(
    unbilledTime({ orgId: scope.orgId, visibility: clientVisibility(scope, sql`te.client_id`) }),
  );
  const fees = dueFeePeriods({
    orgId: scope.orgId,
    visibility: clientVisibility(scope, sql`cs.client_id`),
    now,
  });
  const disbVisible = clientVisibility(scope, sql`d.client_id`);
  const search: SQL = input.search
    ? sql`and (c.name ilike ${escapeLike(input.search)} or c.code ilike ${escapeLike(input.search)})`
    : sql``;
  const direction = sql.raw(input.direction === 'asc' ? 'asc' : 'desc');
  const result = await db.execute(sql`
    with tc as (
      select t.client_id,
             coalesce(sum(t.minutes) filter (where t.mode = 'hourly'), 0) as time_minutes,
             coalesce(sum(t.value) filter (where t.mode = 'hourly'), 0) as time_value,
             count(*) filter (where t.mode = 'hourly' and t.bill_rate is null) as unrated,
             coalesce(sum(t.minutes) filter (where t.mode = 'fixed'), 0) as covered_minutes,
             coalesce(sum(t.value) filter (where t.mode = 'fixed'), 0) as covered_value
      from (${time}) t group by t.client_id
    ),
    fc as (
      select f.client_id, count(*) as fee_count, sum(round(f.fee::numeric * ${scale})) as fee_value
      from (${fees}) f group by f.client_id
    ),
    dc as (
      select d.client_id, count(*) as disb_count, sum(d.amount) as disb_value
      from disbursements d
      where d.org_id = ${scope.orgId} and d.invoice_line_id is null ${disbVisible ? sql`and ${disbVisible}` : sql``}
      group by d.client_id
    ),
    w as (
      select coalesce(tc.client_id, fc.client_id, dc.client_id) as client_id,
             coalesce(tc.time_minutes, 0) as time_minutes, coalesce(tc.time_value, 0) as time_value,
             coalesce(tc.unrated, 0) as unrated,
             coalesce(tc.covered_minutes, 0) as covered_minutes, coalesce(tc.covered_value, 0) as covered_value,
             coalesce(fc.fee_count, 0) as fee_count, coalesce(fc.fee_value, 0) as fee_value,
             coalesce(dc.disb_count, 0) as disb_count, coalesce(dc.disb_value, 0) as disb_value
      from tc full join fc on fc.client_id = tc.client_id
      full join dc on dc.client_id = coalesce(tc.client_id, fc.client_id)
    ),
    listed as (
      select c.id, c.name, c.code, w.*, w.time_value + w.fee_value + w.disb_value as total
      from w join clients c on c.org_id = ${scope.orgId} and c.id = w.client_id
      where true ${search}
    )
    select l.*, count(*) over () as total_rows,
           sum(l.time_minutes) over () as all_time_minutes, sum(l.time_value) over () as all_time_value,
           sum(l.unrated) over () as all_unrated,
           sum(l.covered_minutes) over () as all_covered_minutes,
           sum(l.covered_value) over () as all_covered_value,
           sum(l.fee_count) over () as all_fee_count, sum(l.fee_value) over () as all_fee_value,
           sum(l.disb_count) over () as all_disb_count, sum(l.disb_value) over () as all_disb_value,
           sum(l.total) over () as all_total
    from listed l
    order by ${sql.raw(ORDER[input.sort])} ${direction}, l.name, l.id
    limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`);
  const rows = rowsOf<Record<string, unknown>>(result);
  const first = rows[0];
  const totals: TWipTotals = {
    clients: num(first?.total_rows),
    time: {
      minutes: num(first?.all_time_minutes),
      value: num(first?.all_time_value),
      unrated: num(first?.all_unrated),
    },
    covered: { minutes: num(first?.all_covered_minutes), value: num(first?.all_covered_value) },
    fees: { count: num(first?.all_fee_count), value: num(first?.all_fee_value) },
    disbursements: { count: num(first?.all_disb_count), value: num(first?.all_disb_value) },
    total: num(first?.all_total),
  };
  // A page past the end has no row to carry the totals: ask page one for them.
  if (!first && input.page > 1) {
    const firstPage = await wipList(db, scope, { ...input, page: 1, pageSize: 1 }, now);
    return {
      rows: [],
      total: firstPage.total,
      page: input.page,
      pageSize: input.pageSize,
      totals: firstPage.totals,
    };
  }
  return {
    rows: rows.map((r) => ({
      client: { id: String(r.id), name: String(r.name), code: String(r.code) },
      time: { minutes: num(r.time_minutes), value: num(r.time_value), unrated: num(r.unrated) },
      covered: { minutes: num(r.covered_minutes), value: num(r.covered_value) },
      fees: { count: num(r.fee_count), value: num(r.fee_value) },
      disbursements: { count: num(r.disb_count), value: num(r.disb_value) },
      total: num(r.total),
    })),
    total: totals.clients,
    page: input.page,
    pageSize: input.pageSize,
    totals,
  };
}

/**
 * An unbilled entry as one client's WIP sends it: people, services, projects and tasks by id, their
 * names once in the answer's `names` (a few hundred entries name the same few; sent on every entry,
 * the names were most of a 116 KB answer, bench/README.md).
 */
export type TWipTimeItem = {
  id: string;
  date: string;
  minutes: number;
  rate: number | null;
  value: number;
  note: string;
  memberId: string;
  serviceId: string | null;
  projectId: string | null;
  taskId: string | null;
};
/** Names by id of what the entries refer to. */
export type TWipNames = {
  members: Record<string, string>;
  services: Record<string, string>;
  projects: Record<string, string>;
  tasks: Record<string, string>;
};
export type TWipCoveredItem = TWipTimeItem & { engagementId: string; periodStart: string };
export type TWipFeeItem = {
  engagementId: string;
  periodStart: string;
  periodEnd: string;
  /** "Bookkeeping · Apr 2026". */
  description: string;
  service: { id: string; name: string };
  trigger: TFeeTrigger;
  fee: number;
  project: { id: string; name: string } | null;
  covered: { minutes: number; value: number; entryIds: string[] };
  taxCode: string;
  taxRateBp: number | null;
};
export type TWipDisbursement = {
  id: string;
  spentOn: string;
  kind: TDisbursementKind;
  description: string;
  amount: number;
  project: { id: string; name: string } | null;
  receipt: { id: string; name: string; contentType: string } | null;
};

/** The most time entries one client's WIP answers (oldest first); `more` says some were left out. */
export const WIP_TIME_LIMIT = 2000;

// Project and task names are looked up per entry by primary key: one client's few hundred entries.
// As joins, the planner hashed every project and task of the firm to name them (18 ms of a 27 ms
// statement for 16,000 tasks, bench/README.md).
const DETAIL_TIME = (time: SQL, limit: number | null) => sql`
  select t.*, coalesce(nullif(trim(m.first_name || ' ' || m.last_name), ''), m.email) as member_name,
         s.name as service_name,
         (select p.name from projects p where p.org_id = t.org_id and p.id = t.project_id) as project_name,
         (select k.title from tasks k where k.org_id = t.org_id and k.id = t.task_id) as task_title
  from (${time}) t
  join members m on m.org_id = t.org_id and m.id = t.member_id
  left join services s on s.org_id = t.org_id and s.id = t.service_id
  order by t.date, t.id
  ${limit === null ? sql`` : sql`limit ${limit}`}`;

export type TDetailTimeRow = TTimeRow & {
  member_name: string;
  service_name: string | null;
  project_name: string | null;
  task_title: string | null;
};

/** A client's open time (billable, and covered by unbilled fee periods), with its names. */
export async function openTimeOf(
  db: TExecutor,
  orgId: string,
  clientId: string,
  limit: number | null = null,
) {
  return rowsOf<TDetailTimeRow>(
    await db.execute(DETAIL_TIME(coveredTimeOpen(unbilledTime({ orgId, clientId })), limit)),
  );
}

export function timeItem(r: TDetailTimeRow): TWipTimeItem {
  return {
    id: r.id,
    date: r.date,
    minutes: r.minutes,
    rate: r.bill_rate,
    value: num(r.value),
    note: r.note,
    memberId: r.member_id,
    serviceId: r.service_id,
    projectId: r.project_id,
    taskId: r.task_id,
  };
}

function namesOf(rows: readonly TDetailTimeRow[]): TWipNames {
  const names: TWipNames = { members: {}, services: {}, projects: {}, tasks: {} };
  for (const r of rows) {
    names.members[r.member_id] = r.member_name;
    if (r.service_id) names.services[r.service_id] = r.service_name ?? '';
    if (r.project_id) names.projects[r.project_id] = r.project_name ?? '';
    if (r.task_id) names.tasks[r.task_id] = r.task_title ?? '';
  }
  return names;
}

/** A fee period as a person names it: "Bookkeeping · Apr 2026", or the service for a one-time one. */
export function feeDescription(
  row: Pick<TFeePeriodRow, 'service_name' | 'frequency' | 'fy_month' | 'period_start'>,
) {
  if (row.frequency === 'one_time') return row.service_name;
  return projectNameFor(
    row.service_name,
    periodContaining(row.frequency as TRecurringFrequency, row.fy_month, row.period_start),
  );
}

/**
 * One client's work in progress, item by item: billable time, time covered by fixed fees (under its
 * fee), fees due, unbilled disbursements, and the client's open drafts to add to. `now` moves the
 * firm's today in tests.
 */
export async function clientWip(db: TExecutor, scope: TScope, clientId: string, now = new Date()) {
  // All at once: the client's visibility decides the answer (NOT_FOUND), but the reads below are
  // scoped to the firm and client by themselves, so they need not wait for it.
  const [client, ctx, timeRows, feeResult, disbResult, draftResult, projectResult] = await Promise.all([
    visibleClient(db, scope, clientId),
    billingContext(db, scope.orgId),
    openTimeOf(db, scope.orgId, clientId, WIP_TIME_LIMIT + 1),
    db.execute(
      sql`${dueFeePeriods({ orgId: scope.orgId, clientId, now })} order by period_start, service_name`,
    ),
    db.execute(sql`
      select d.id, d.spent_on::text as spent_on, d.kind, d.description, d.amount, d.project_id,
             p.name as project_name, doc.id as doc_id, doc.name as doc_name, doc.content_type as doc_type
      from disbursements d
      left join projects p on p.org_id = d.org_id and p.id = d.project_id
      left join documents doc on doc.org_id = d.org_id and doc.id = d.receipt_document_id and doc.deleted_at is null
      where d.org_id = ${scope.orgId} and d.client_id = ${clientId} and d.invoice_line_id is null
      order by d.spent_on, d.created_at, d.id`),
    db.execute(sql`
      select i.id, i.created_at, i.total, (select count(*) from invoice_lines l
        where l.org_id = i.org_id and l.invoice_id = i.id)::int as lines
      from invoices i
      where i.org_id = ${scope.orgId} and i.client_id = ${clientId} and i.status = 'draft' and i.kind = 'invoice'
      order by i.created_at desc limit 20`),
    // The client's live projects, for a disbursement's project picker.
    db.execute(sql`
      select p.id, p.name from projects p
      where p.org_id = ${scope.orgId} and p.client_id = ${clientId} and p.archived_at is null
      order by p.created_at desc limit 200`),
  ]);
  const more = timeRows.length > WIP_TIME_LIMIT;
  const shown = timeRows.slice(0, WIP_TIME_LIMIT);
  const time = shown.filter((r) => r.mode === 'hourly').map(timeItem);
  const covered: TWipCoveredItem[] = shown
    .filter((r) => r.mode === 'fixed' && r.engagement_id && r.period_start)
    .map((r) => ({ ...timeItem(r), engagementId: r.engagement_id ?? '', periodStart: r.period_start ?? '' }));
  const fees: TWipFeeItem[] = rowsOf<TFeePeriodRow>(feeResult).map((r) => {
    const mine = covered.filter(
      (c) => c.engagementId === r.engagement_id && c.periodStart === r.period_start,
    );
    return {
      engagementId: r.engagement_id,
      periodStart: r.period_start,
      periodEnd: r.period_end,
      description: feeDescription(r),
      service: { id: r.service_id, name: r.service_name },
      trigger: r.fee_trigger as TFeeTrigger,
      fee: feeMinor(r.fee, ctx.digits) ?? 0,
      project: r.project_id ? { id: r.project_id, name: r.project_name ?? '' } : null,
      covered: {
        minutes: mine.reduce((s, c) => s + c.minutes, 0),
        value: mine.reduce((s, c) => s + c.value, 0),
        entryIds: mine.map((c) => c.id),
      },
      taxCode: r.tax_code,
      taxRateBp: r.tax_rate_bp,
    };
  });
  const disbursements: TWipDisbursement[] = rowsOf<Record<string, unknown>>(disbResult).map((r) => ({
    id: String(r.id),
    spentOn: String(r.spent_on),
    kind: r.kind as TDisbursementKind,
    description: String(r.description),
    amount: num(r.amount),
    project: r.project_id ? { id: String(r.project_id), name: String(r.project_name ?? '') } : null,
    receipt: r.doc_id
      ? { id: String(r.doc_id), name: String(r.doc_name), contentType: String(r.doc_type) }
      : null,
  }));
  const drafts = rowsOf<Record<string, unknown>>(draftResult).map((r) => ({
    id: String(r.id),
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
    total: num(r.total),
    lines: num(r.lines),
  }));
  const sum = (xs: { value?: number; fee?: number; amount?: number }[], k: 'value' | 'fee' | 'amount') =>
    xs.reduce((s, x) => s + (x[k] ?? 0), 0);
  return {
    client: { id: client.id, name: client.name, code: client.code },
    time,
    covered,
    fees,
    disbursements,
    drafts,
    projects: rowsOf<{ id: string; name: string }>(projectResult),
    names: namesOf(shown),
    more,
    totals: {
      time: sum(time, 'value'),
      fees: sum(fees, 'fee'),
      disbursements: sum(disbursements, 'amount'),
      covered: sum(covered, 'value'),
    },
  };
}
export type TClientWip = Awaited<ReturnType<typeof clientWip>>;
