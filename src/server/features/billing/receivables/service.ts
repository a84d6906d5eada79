import { eq, type SQL, sql } from 'drizzle-orm';
import type { TAgingDimension, TAgingInput } from '../../../../domain/billing/payments';
import { todayIn } from '../../../../domain/days';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { members, orgs } from '../../../db/schema';
import { escapeLike, memberName, rowsOf } from '../../../db/sql';
import { clientVisibility } from '../../clients';

// Receivables: what clients owe, aged by days past due on the firm's today, by client, client group
// or partner, with each client's credit beside it. One statement: the open balances and the credit
// per client, grouped, sorted and paged on the server, with the totals of every group as window sums.

const BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'd90_plus'] as const;

/** The partner a client's receivables are reported under: its team member whose responsibility names a partner (the first added). */
const partnerOf = sql`(select ct.member_id from client_team ct
  where ct.org_id = c.org_id and ct.client_id = c.id and ct.responsibility ilike '%partner%'
  order by ct.created_at, ct.member_id limit 1)`;

function keyOf(by: TAgingDimension): { key: SQL; label: SQL; join: SQL } {
  switch (by) {
    case 'group':
      return {
        key: sql`coalesce(c.group_id::text, '')`,
        label: sql`coalesce(g.name, '')`,
        join: sql`left join client_groups g on g.org_id = c.org_id and g.id = c.group_id`,
      };
    case 'partner':
      return {
        key: sql`coalesce(p.id::text, '')`,
        label: sql`coalesce(p.name, '')`,
        join: sql`left join lateral (select ${members.id} as id, ${memberName} as name from ${members}
          where ${members.orgId} = c.org_id and ${members.id} = ${partnerOf}) p on true`,
      };
    default:
      return { key: sql`c.id::text`, label: sql`c.name`, join: sql`` };
  }
}

const ORDER: Record<TAgingInput['sort'], SQL> = {
  name: sql`label`,
  outstanding: sql`outstanding`,
  current: sql`current`,
  d1_30: sql`d1_30`,
  d31_60: sql`d31_60`,
  d61_90: sql`d61_90`,
  d90_plus: sql`d90_plus`,
  credit: sql`credit`,
};

type TAgingRaw = Record<(typeof BUCKETS)[number] | 'outstanding' | 'credit' | 'clients', string> & {
  key: string;
  label: string;
  code: string | null;
  groups: string;
} & Record<`total_${(typeof BUCKETS)[number] | 'outstanding' | 'credit' | 'clients'}`, string>;

export type TAgingTotals = Omit<TAgingRow, 'id' | 'name' | 'code'>;
export type TAgingReport = {
  today: string;
  by: TAgingDimension;
  rows: TAgingRow[];
  total: number;
  totals: TAgingTotals | null;
  page: number;
  pageSize: number;
};

export type TAgingRow = {
  /** The client's, group's or partner's id; null for "no group" or "no partner". */
  id: string | null;
  name: string | null;
  code: string | null;
  clients: number;
  current: number;
  d1_30: number;
  d31_60: number;
  d61_90: number;
  d90_plus: number;
  outstanding: number;
  credit: number;
};

export async function agingReport(db: TExecutor, scope: TScope, input: TAgingInput): Promise<TAgingReport> {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, scope.orgId));
  const today = todayIn(org?.timeZone ?? 'UTC');
  const orgId = scope.orgId;
  const { key, label, join } = keyOf(input.by);
  const visible = clientVisibility(scope, sql`c.id`) ?? sql`true`;
  const term = input.search ? escapeLike(input.search) : null;
  const search = term
    ? input.by === 'client'
      ? sql`(c.name ilike ${term} or c.code ilike ${term})`
      : sql`${label} ilike ${term}`
    : sql`true`;
  const past = sql`(${today}::date - i.due_date)`;
  const dir = sql.raw(input.direction === 'asc' ? 'asc' : 'desc');
  const result = await db.execute(sql`
    with open as (
      select i.client_id,
        sum(i.balance) filter (where i.due_date is null or ${past} <= 0) as current,
        sum(i.balance) filter (where ${past} between 1 and 30) as d1_30,
        sum(i.balance) filter (where ${past} between 31 and 60) as d31_60,
        sum(i.balance) filter (where ${past} between 61 and 90) as d61_90,
        sum(i.balance) filter (where ${past} > 90) as d90_plus
      from invoices i
      where i.org_id = ${orgId} and i.kind = 'invoice' and i.status in ('issued', 'sent', 'partly_paid')
        and i.balance > 0
      group by i.client_id
    ), credit as (
      -- Kept per client by the database's triggers (client_billing.credit): the few clients with
      -- credit, from a partial index, rather than every payment and allocation of the firm.
      select client_id, credit from client_billing where org_id = ${orgId} and credit <> 0
    ), per_client as (
      select coalesce(o.client_id, cr.client_id) as client_id,
        coalesce(o.current, 0) as current, coalesce(o.d1_30, 0) as d1_30, coalesce(o.d31_60, 0) as d31_60,
        coalesce(o.d61_90, 0) as d61_90, coalesce(o.d90_plus, 0) as d90_plus, coalesce(cr.credit, 0) as credit
      from open o full join credit cr on cr.client_id = o.client_id
    ), keyed as (
      select ${key} as key, ${label} as label, ${input.by === 'client' ? sql`c.code` : sql`null::text`} as code, pc.*
      from per_client pc
      join clients c on c.org_id = ${orgId} and c.id = pc.client_id
      ${join}
      where ${visible} and ${search}
    ), grouped as (
      select key, max(label) as label, max(code) as code, count(*) as clients,
        sum(current) as current, sum(d1_30) as d1_30, sum(d31_60) as d31_60, sum(d61_90) as d61_90,
        sum(d90_plus) as d90_plus, sum(current + d1_30 + d31_60 + d61_90 + d90_plus) as outstanding,
        sum(credit) as credit
      from keyed group by key
    )
    select *, count(*) over () as groups,
      sum(clients) over () as total_clients,
      sum(current) over () as total_current, sum(d1_30) over () as total_d1_30,
      sum(d31_60) over () as total_d31_60, sum(d61_90) over () as total_d61_90,
      sum(d90_plus) over () as total_d90_plus, sum(outstanding) over () as total_outstanding,
      sum(credit) over () as total_credit
    from grouped
    order by ${ORDER[input.sort]} ${dir}, label ${dir}, key
    limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`);
  const raw = rowsOf<TAgingRaw>(result);
  const num = (v: string | number | null | undefined) => Number(v ?? 0);
  const rows: TAgingRow[] = raw.map((r) => ({
    id: r.key || null,
    name: r.label || null,
    code: r.code,
    clients: num(r.clients),
    current: num(r.current),
    d1_30: num(r.d1_30),
    d31_60: num(r.d31_60),
    d61_90: num(r.d61_90),
    d90_plus: num(r.d90_plus),
    outstanding: num(r.outstanding),
    credit: num(r.credit),
  }));
  const first = raw[0];
  // Past the last page the window sums are gone with the rows: ask the first page for them.
  if (!first && input.page > 1) {
    const head = await agingReport(db, scope, { ...input, page: 1, pageSize: 1 });
    return { ...head, rows: [], page: input.page, pageSize: input.pageSize };
  }
  const totals = first
    ? {
        clients: num(first.total_clients),
        current: num(first.total_current),
        d1_30: num(first.total_d1_30),
        d31_60: num(first.total_d31_60),
        d61_90: num(first.total_d61_90),
        d90_plus: num(first.total_d90_plus),
        outstanding: num(first.total_outstanding),
        credit: num(first.total_credit),
      }
    : null;
  return {
    today,
    by: input.by,
    rows,
    total: first ? num(first.groups) : 0,
    totals,
    page: input.page,
    pageSize: input.pageSize,
  };
}
