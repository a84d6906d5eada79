import { and, count, type SQL, sql } from 'drizzle-orm';
import { ZInvoiceListInput } from '../src/domain/billing/invoices';
import { ZAgingInput } from '../src/domain/billing/payments';
import type { TScope } from '../src/server/auth';
import type { TDb } from '../src/server/db/client';
import { clients, invoices } from '../src/server/db/schema';
import {
  agingReport,
  clientStatement,
  clientWip,
  invoiceListColumns,
  invoiceListWhere,
  invoiceOrder,
  owedWhere,
} from '../src/server/features/billing';
import { rowsOf } from './generate-people';

// The plans of the statements the measured procedures run, taken from the product's own functions:
// each raw statement they send through `execute` is run as EXPLAIN (ANALYZE, BUFFERS) instead, so the
// plan is of the SQL the procedure runs, not of a copy of it. The invoices list is built with the
// query builder, so its statement is put together here from the list's own where, order and columns.

function explaining(db: TDb, plans: string[][]): TDb {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (query: SQL) => {
        const plan = rowsOf<Record<string, string>>(
          await target.execute(sql`explain (analyze, buffers) ${query}`),
        ).map((r) => Object.values(r)[0] as string);
        plans.push(plan);
        return [];
      };
    },
  });
}

const print = (name: string, plans: string[][]) => {
  plans.forEach((plan, i) => {
    console.log(`\n— ${name}${plans.length > 1 ? ` (statement ${i + 1})` : ''}\n${plan.join('\n')}`);
  });
};

export async function explainBilling(
  db: TDb,
  owner: { id: string; orgId: string },
  opts: { wipClientId: string; statementClientId: string; period: { from: string; to: string } },
) {
  const scope = { orgId: owner.orgId, memberId: owner.id, assignedClientsOnly: false } as TScope;

  const wip: string[][] = [];
  await clientWip(explaining(db, wip), scope, opts.wipClientId).catch(() => undefined);
  print('billing.wip.client', wip);

  const input = ZInvoiceListInput.parse({});
  const [org] = rowsOf<{ today: string }>(
    await db.execute(
      sql`select (now() at time zone time_zone)::date::text as today from orgs where id = ${owner.orgId}`,
    ),
  );
  const where = invoiceListWhere(scope, input, org?.today ?? '');
  const join = sql`${clients.orgId} = ${invoices.orgId} and ${clients.id} = ${invoices.clientId}`;
  const page = db
    .select(invoiceListColumns)
    .from(invoices)
    .innerJoin(clients, join)
    .where(where)
    .orderBy(...invoiceOrder(input.sort, input.direction))
    .limit(input.pageSize);
  // As listInvoices runs them with no search: the count and what is owed, without the client.
  const total = db.select({ total: count() }).from(invoices).where(where);
  const owed = db
    .select({ balance: sql`coalesce(sum(${invoices.balance}), 0)` })
    .from(invoices)
    .where(and(where, owedWhere));
  const list: string[][] = [];
  for (const q of [page, total, owed]) {
    list.push(
      rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers) ${q}`)).map(
        (r) => Object.values(r)[0] as string,
      ),
    );
  }
  print('billing.invoices.list: the page, the count, what is owed', list);

  const aging: string[][] = [];
  await agingReport(explaining(db, aging), scope, ZAgingInput.parse({})).catch(() => undefined);
  print('billing.receivables.aging', aging);

  const statement: string[][] = [];
  await clientStatement(
    explaining(db, statement),
    owner.orgId,
    opts.statementClientId,
    opts.period.from,
    opts.period.to,
  ).catch(() => undefined);
  print('the statement (the PDF reads it)', statement);
}
