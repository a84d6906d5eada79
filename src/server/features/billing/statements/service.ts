import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { TAgingBucket } from '../../../../domain/billing/constants';
import type { TStatementEntryKind } from '../../../../domain/billing/payments';
import { agingBucket } from '../../../../domain/billing/status';
import type { TExecutor } from '../../../db/client';
import { clients, orgs } from '../../../db/schema';
import { rowsOf } from '../../../db/sql';

// A client's statement for a period: what it was billed and paid, in date order, with the balance
// running from the opening (everything before the period) to the closing. The balance is what the
// client owes the firm (negative: the firm holds its credit). It reads only money that moved:
// invoices and credit notes issued (a void one never happened), receipts with their TDS and bank
// charges, refunds, and the reversal of either on the day it was reversed.

export type TStatementEntry = {
  /** The invoice's or payment's id: one record may give several entries (a receipt's TDS). */
  id: string;
  date: string;
  kind: TStatementEntryKind;
  /** The invoice or credit note number, or the payment's reference. */
  reference: string;
  /** Words beside the reference: a TDS section, a credit note's invoice, a reversal's reason. */
  detail: string;
  debit: number;
  credit: number;
  balance: number;
};

export type TStatement = {
  client: { id: string; name: string; code: string };
  currency: string;
  from: string;
  to: string;
  openingBalance: number;
  entries: TStatementEntry[];
  totals: { debit: number; credit: number };
  closingBalance: number;
  /** What was still owed at the close of `to`, by days past due then. */
  aging: Record<TAgingBucket, number>;
};

const KIND_ORDER: Record<TStatementEntryKind, number> = {
  invoice: 0,
  credit_note: 1,
  payment: 2,
  tds: 3,
  bank_charges: 4,
  refund: 5,
  payment_reversed: 6,
  refund_reversed: 7,
};

/** Every entry of the client up to `to`, as one list of (day, kind, amounts). */
function entriesUpTo(orgId: string, clientId: string, to: string, timeZone: string): SQL {
  const reversedOn = sql`(p.reversed_at at time zone ${timeZone})::date`;
  return sql`
    select i.id, i.issue_date as day, i.created_at as at,
      case when i.kind = 'invoice' then 'invoice' else 'credit_note' end as kind,
      coalesce(i.number, '') as reference,
      case when i.kind = 'credit_note' then coalesce((select o.number from invoices o
        where o.org_id = i.org_id and o.id = i.credit_for_id), '') else '' end as detail,
      case when i.kind = 'invoice' then i.total else 0 end as debit,
      case when i.kind = 'credit_note' then i.total else 0 end as credit
    from invoices i
    where i.org_id = ${orgId} and i.client_id = ${clientId} and i.status not in ('draft', 'void')
      and i.issue_date <= ${to}
    union all
    select p.id, p.received_on, p.created_at, 'payment', p.reference, p.method, 0, p.amount
    from payments p where p.org_id = ${orgId} and p.client_id = ${clientId} and p.kind = 'receipt'
      and p.amount > 0 and p.received_on <= ${to}
    union all
    select p.id, p.received_on, p.created_at, 'tds', p.reference, coalesce(p.tds_section, ''), 0, p.tds_amount
    from payments p where p.org_id = ${orgId} and p.client_id = ${clientId} and p.kind = 'receipt'
      and p.tds_amount > 0 and p.received_on <= ${to}
    union all
    select p.id, p.received_on, p.created_at, 'bank_charges', p.reference, '', 0, p.bank_charges
    from payments p where p.org_id = ${orgId} and p.client_id = ${clientId} and p.kind = 'receipt'
      and p.bank_charges > 0 and p.received_on <= ${to}
    union all
    select p.id, p.received_on, p.created_at, 'refund', p.reference, p.method, p.amount, 0
    from payments p where p.org_id = ${orgId} and p.client_id = ${clientId} and p.kind = 'refund'
      and p.received_on <= ${to}
    union all
    select p.id, ${reversedOn}, p.reversed_at,
      case when p.kind = 'receipt' then 'payment_reversed' else 'refund_reversed' end,
      p.reference, coalesce(p.reverse_reason, ''),
      case when p.kind = 'receipt' then p.amount + p.tds_amount + p.bank_charges else 0 end,
      case when p.kind = 'refund' then p.amount else 0 end
    from payments p where p.org_id = ${orgId} and p.client_id = ${clientId}
      and p.reversed_at is not null and ${reversedOn} <= ${to}`;
}

type TEntryRaw = {
  id: string;
  day: string;
  at: string | Date;
  kind: TStatementEntryKind;
  reference: string;
  detail: string;
  debit: string | number;
  credit: string | number;
};

/**
 * The statement of a client (of this firm: NOT_FOUND otherwise) from `from` to `to`, both days
 * included. No permission or visibility check: the staff procedure and the portal check those first.
 */
export async function clientStatement(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  from: string,
  to: string,
): Promise<TStatement> {
  const [[client], [org]] = await Promise.all([
    tx
      .select({ id: clients.id, name: clients.name, code: clients.code })
      .from(clients)
      .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId))),
    tx.select({ timeZone: orgs.timeZone, currency: orgs.currency }).from(orgs).where(eq(orgs.id, orgId)),
  ]);
  if (!client || !org) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  const entries = entriesUpTo(orgId, clientId, to, org.timeZone);
  const [openingResult, periodResult, agingResult] = await Promise.all([
    tx.execute(sql`select coalesce(sum(e.debit - e.credit), 0) as opening
      from (${entries}) e where e.day < ${from}`),
    tx.execute(sql`select e.id, e.day::text as day, e.at, e.kind, e.reference, e.detail, e.debit, e.credit
      from (${entries}) e where e.day >= ${from}`),
    tx.execute(sql`
      select i.due_date::text as due, i.total - coalesce((select sum(a.amount) from allocations a
          where a.org_id = i.org_id and a.invoice_id = i.id and a.allocated_on <= ${to}
            and (a.reversed_at is null or (a.reversed_at at time zone ${org.timeZone})::date > ${to})), 0) as owed
      from invoices i
      where i.org_id = ${orgId} and i.client_id = ${clientId} and i.kind = 'invoice'
        and i.status not in ('draft', 'void') and i.issue_date <= ${to}`),
  ]);
  const openingBalance = Number(rowsOf<{ opening: string }>(openingResult)[0]?.opening ?? 0);
  const raw = rowsOf<TEntryRaw>(periodResult).sort(
    (a, b) =>
      a.day.localeCompare(b.day) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      new Date(a.at).getTime() - new Date(b.at).getTime() ||
      a.id.localeCompare(b.id),
  );
  let balance = openingBalance;
  const totals = { debit: 0, credit: 0 };
  const out: TStatementEntry[] = raw.map((r) => {
    const debit = Number(r.debit);
    const credit = Number(r.credit);
    balance += debit - credit;
    totals.debit += debit;
    totals.credit += credit;
    return {
      id: r.id,
      date: r.day,
      kind: r.kind,
      reference: r.reference,
      detail: r.detail,
      debit,
      credit,
      balance,
    };
  });
  const aging: Record<TAgingBucket, number> = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 };
  for (const r of rowsOf<{ due: string | null; owed: string }>(agingResult)) {
    const owed = Number(r.owed);
    if (owed > 0) aging[r.due ? agingBucket(r.due, to) : 'current'] += owed;
  }
  return {
    client,
    currency: org.currency,
    from,
    to,
    openingBalance,
    entries: out,
    totals,
    closingBalance: balance,
    aging,
  };
}
