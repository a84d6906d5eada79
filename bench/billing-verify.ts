import { sql } from 'drizzle-orm';
import { addDays } from '../src/domain/days';
import type { TDb } from '../src/server/db/client';
import type { TTestApp } from '../src/server/test/app';
import { rowsOf } from './generate-people';

// Before measuring, the generated year is read back through the product's own procedures and must
// agree with itself: the receivables' outstanding is the invoices list's and the ledger's (total less
// live allocations); each sampled client's statement closes at what aging says it owes less its
// credit; one client's WIP is its unbilled approved time at its rates; stored statuses follow the
// domain's rule. A generator that drifted from what the product writes fails here, not in a figure.

type TApi = ReturnType<TTestApp['client']>;

export async function verifyBilling(
  db: TDb,
  api: TApi,
  orgId: string,
  opts: { statementClientId: string; wipClientId: string; period: { from: string; to: string } },
) {
  const fail: string[] = [];
  const [ledger] = rowsOf<{ owed: string; bad_status: number }>(
    await db.execute(sql`
      select coalesce(sum(i.total - coalesce(a.settled, 0)) filter (where i.status in ('issued', 'sent', 'partly_paid')), 0)::text as owed,
        count(*) filter (where i.status <> case when i.total - coalesce(a.settled, 0) = 0 then 'paid'
          when coalesce(a.settled, 0) > 0 then 'partly_paid' when i.sent_at is not null then 'sent' else 'issued' end)::int as bad_status
      from invoices i
      left join (select invoice_id, sum(amount) as settled from allocations
                 where org_id = ${orgId} and reversed_at is null group by invoice_id) a on a.invoice_id = i.id
      where i.org_id = ${orgId} and i.kind = 'invoice' and i.status not in ('draft', 'void')`),
  );
  const aging = await api.billing.receivables.aging.query({});
  const outstanding = await api.billing.invoices.list.query({ status: 'outstanding' });
  const overdue = await api.billing.invoices.list.query({ status: 'overdue' });
  const paid = await api.billing.invoices.list.query({ status: 'paid' });
  const partly = await api.billing.invoices.list.query({ status: 'partly_paid' });
  if (
    Number(ledger?.owed) !== aging.totals?.outstanding ||
    outstanding.outstanding !== aging.totals?.outstanding
  )
    fail.push(
      `outstanding: ledger ${ledger?.owed}, aging ${aging.totals?.outstanding}, invoices list ${outstanding.outstanding}`,
    );
  if (ledger?.bad_status)
    fail.push(`${ledger.bad_status} invoices whose status is not what their money says`);

  // The statement client and a spread of others with invoices: statement closing = owed − credit.
  const sample = rowsOf<{ id: string; code: string }>(
    await db.execute(sql`
      select c.id, c.code from clients c where c.org_id = ${orgId}
        and (c.id = ${opts.statementClientId} or exists (select 1 from invoices i where i.org_id = c.org_id
          and i.client_id = c.id and i.status not in ('draft', 'void') and (hashtext(c.code) & 2147483647) % 400 = 0))
      order by c.code limit 60`),
  );
  let credit = 0;
  for (const c of sample) {
    const from = c.id === opts.statementClientId ? opts.period.from : addDays(opts.period.to, -400);
    const statement = await api.billing.statements.get.query({ clientId: c.id, from, to: opts.period.to });
    const row = (await api.billing.receivables.aging.query({ search: c.code })).rows.find(
      (r) => r.code === c.code,
    );
    const owes = row ? row.outstanding - row.credit : 0;
    if (row?.credit) credit += 1;
    if (statement.closingBalance !== owes)
      fail.push(`${c.code}: statement closes at ${statement.closingBalance}, aging says ${owes}`);
  }

  const wip = await api.billing.wip.client.query({ clientId: opts.wipClientId });
  const [time] = rowsOf<{ value: string }>(
    await db.execute(sql`
      select coalesce(sum(round(minutes::numeric * coalesce(bill_rate, 0) / 60)), 0)::text as value
      from timesheet_entries where org_id = ${orgId} and client_id = ${opts.wipClientId}
        and billable and status = 'approved' and invoice_line_id is null`),
  );
  if (!wip.more && wip.totals.time !== Number(time?.value))
    fail.push(`WIP: the screen says ${wip.totals.time}, the unbilled time is worth ${time?.value}`);

  console.log(
    `checked: outstanding ${aging.totals?.outstanding} over ${outstanding.total} open invoices (${overdue.total} overdue, ${partly.total} partly paid, ${paid.total}${paid.totalCapped ? '+' : ''} paid), ${aging.total} clients owing or in credit; ${sample.length} statements (${credit} with credit) close at aging's balance; WIP of one client ${wip.totals.time} = its unbilled time`,
  );
  if (fail.length) throw new Error(`the generated billing does not hold together:\n${fail.join('\n')}`);
}
