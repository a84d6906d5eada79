// npx tsx bench/billing.ts [--engine postgres|pglite] [--members 500] [--entries 2500000] [--clients 20000]
//   [--calls 30]
//   [--skip-explain] [--keep | --database bench_billing_…]
// Issue 35's speed targets on the large firm with a year of time entries and invoices, each a lone
// request through tRPC (or HTTP) with a real token: one client's work in progress and the invoices
// list's first page ≤ 20 ms p50 on PostgreSQL; the firm's receivables aging ≤ 150 ms; a 10-page
// statement PDF ≤ 1 s. PostgreSQL gets a fresh database (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres) dropped afterwards (--keep leaves it; --database NAME
// measures a kept one again without generating).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { todayIn } from '../src/domain/days';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { members as membersTable, orgs } from '../src/server/db/schema';
import { renderStatementPdf, statementPdfModel } from '../src/server/features/billing';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { explainBilling } from './billing-explain';
import { verifyBilling } from './billing-verify';
import { generateBilling } from './generate-billing';
import { generateClientBook } from './generate-clients';
import { generatePeople, rowsOf } from './generate-people';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    members: { type: 'string', default: '500' },
    entries: { type: 'string', default: '2500000' },
    clients: { type: 'string', default: '20000' },
    calls: { type: 'string', default: '30' },
    'skip-explain': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const CALLS = Number(args.calls);
const CLIENTS = Number(args.clients);
const WARMUP = 5;
const FIRM = 'Billing bench';
const STATEMENT_CLIENT = 'C000001';

/** The pages of a PDF as poppler's pdfinfo counts them (an independent reader, as the PDF tests use). */
function pdfPages(pdf: Buffer): string {
  const dir = mkdtempSync(join(os.tmpdir(), 'bench-billing-'));
  try {
    writeFileSync(join(dir, 'statement.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'statement.pdf')], { encoding: 'utf8' });
    return /^Pages:\s*(\d+)/m.exec(info)?.[1] ?? '?';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function openDatabase(): Promise<{ database: TDatabase; fresh: boolean; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), fresh: true, drop: async () => {} };
  if (args.engine !== 'postgres') throw new Error(`unknown engine ${args.engine}`);
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = args.database ?? `bench_billing_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a database name: ${name}`);
  if (!args.database) await createDatabase(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString());
  return {
    database,
    fresh: !args.database,
    drop: async () => {
      if (args.keep || args.database) console.log(`kept database ${name}`);
      else await dropDatabase(url, name);
    },
  };
}

async function main() {
  const { database, fresh, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const today = todayIn('Asia/Kolkata');
    let owner: { id: string; token: string; orgId: string };
    if (fresh) {
      const firm = await t.seedFirm(FIRM);
      let start = performance.now();
      const people = await generatePeople(t.db, firm.org.id, {
        members: Number(args.members),
        years: 1,
        entries: Number(args.entries),
        today,
      });
      const memberIds = rowsOf<{ id: string }>(
        await t.db.execute(sql`select id from members where org_id = ${firm.org.id} and status = 'active'`),
      ).map((r) => r.id);
      await generateClientBook(
        t.db,
        firm.org.id,
        memberIds,
        { clients: CLIENTS, groups: 200, services: 40, engagements: CLIENTS * 3 },
        1,
      );
      console.log(
        `${args.engine}: ${people.members} members, ${people.entries.toLocaleString('en')} entries from ${people.from}, ${(CLIENTS + 2000).toLocaleString('en')} clients, ${(CLIENTS * 3).toLocaleString('en')} engagements in ${((performance.now() - start) / 1000).toFixed(0)} s`,
      );
      start = performance.now();
      const made = await generateBilling(t.db, firm.org.id, {
        today,
        createdBy: firm.owner.id,
        statementClientCode: STATEMENT_CLIENT,
        statementInvoices: 100,
      });
      // A year of payments in minutes moves each client's kept credit (client_billing.credit, in a
      // partial index: every move a new index entry) thousands of times with no autovacuum between:
      // the table and its credit index came out 9 and 200 times their size (1,900 and 1,941 pages for
      // 18,174 rows, 977 with credit), and aging seq-scanned it. A year of real use is vacuumed as it
      // goes; rewriting the table once leaves it as such a year would (bench/README.md).
      await t.db.execute(sql`vacuum full client_billing`);
      await t.db.execute(sql`vacuum analyze`);
      console.log(
        `${args.engine}: billing from ${made.billFrom}: ${made.invoices.toLocaleString('en')} invoices (${made.drafts} drafts, ${made.void} void), ${made.creditNotes} credit notes, ${made.lines.toLocaleString('en')} lines, ${made.timeLinked.toLocaleString('en')} time entries billed, ${made.payments.toLocaleString('en')} payments, ${made.allocations.toLocaleString('en')} allocations in ${((performance.now() - start) / 1000).toFixed(0)} s`,
      );
      owner = { id: firm.owner.id, token: firm.owner.token, orgId: firm.org.id };
    } else {
      const [row] = await t.db
        .select({ id: membersTable.id, sub: membersTable.sub, orgId: orgs.id })
        .from(membersTable)
        .innerJoin(orgs, eq(orgs.id, membersTable.orgId))
        .where(and(eq(orgs.name, FIRM), eq(membersTable.isOwner, true)));
      if (!row?.sub) throw new Error(`no firm named ${FIRM} in ${args.database}`);
      owner = { id: row.id, token: await t.tokenFor(row.sub), orgId: row.orgId };
    }
    const api = t.client(owner.token);
    const [wipClient] = rowsOf<{ client_id: string; n: number }>(
      await t.db.execute(sql`
        select client_id, count(*)::int as n from timesheet_entries
        where org_id = ${owner.orgId} and billable and status = 'approved' and invoice_line_id is null
          and client_id is not null
        group by client_id order by n desc, client_id limit 1`),
    );
    const [statementClient] = rowsOf<{ id: string; from: string }>(
      await t.db.execute(sql`
        select c.id, min(i.issue_date)::text as from from clients c
        join invoices i on i.org_id = c.org_id and i.client_id = c.id
        where c.org_id = ${owner.orgId} and c.code = ${STATEMENT_CLIENT} group by c.id`),
    );
    if (!wipClient || !statementClient) throw new Error('no WIP client or statement client');
    const period = { from: statementClient.from, to: today };

    await verifyBilling(t.db, api, owner.orgId, {
      statementClientId: statementClient.id,
      wipClientId: wipClient.client_id,
      period,
    });

    // The server's CPU per call: what this process spends from a request's arrival to its answer's
    // last byte handed to the socket. The calls run one at a time and the client only waits in that
    // span, so it is the server's share of the process's CPU (the client's JSON parse comes after).
    let serverCpu = 0;
    t.app.server.prependListener('request', (_req, res) => {
      const begin = process.cpuUsage();
      res.on('finish', () => {
        const used = process.cpuUsage(begin);
        serverCpu += used.user + used.system;
      });
    });

    const statementUrl = `${t.url}/api/billing/clients/${statementClient.id}/statement.pdf?from=${period.from}&to=${period.to}`;
    let pages = '';
    const cases = [
      {
        name: 'billing.wip.client',
        target: 20,
        call: () => api.billing.wip.client.query({ clientId: wipClient.client_id }),
        check: (r: { time: unknown[]; fees: unknown[]; more: boolean }) =>
          `${r.time.length} time entries${r.more ? ' and more' : ''}, ${r.fees.length} fees`,
      },
      {
        name: 'billing.invoices.list (first page)',
        target: 20,
        call: () => api.billing.invoices.list.query({}),
        check: (r: { total: number; rows: unknown[] }) => `${r.rows.length} of ${r.total}`,
      },
      {
        name: 'billing.receivables.aging (by client)',
        target: 150,
        call: () => api.billing.receivables.aging.query({}),
        check: (r: { total: number }) => `${r.total} clients`,
      },
      {
        name: 'billing.wip.list (no target: the firm’s WIP)',
        target: 0,
        // Seconds a call on the large firm: a few tell enough.
        calls: 5,
        call: () => api.billing.wip.list.query({}),
        check: (r: { total: number }) => `${r.total} clients`,
      },
      {
        name: 'statement PDF',
        target: 1000,
        call: async () => {
          const res = await fetch(statementUrl, { headers: { authorization: `Bearer ${owner.token}` } });
          if (res.status !== 200) throw new Error(`statement PDF: ${res.status} ${await res.text()}`);
          return Buffer.from(await res.arrayBuffer());
        },
        check: (pdf: Buffer) => {
          pages ||= pdfPages(pdf);
          return `${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB`;
        },
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let shape = '';
      let cpu = process.cpuUsage();
      const calls = ('calls' in c ? c.calls : undefined) ?? CALLS;
      const warmup = 'calls' in c ? 1 : WARMUP;
      for (let i = 0; i < warmup + calls; i++) {
        if (i === warmup) {
          cpu = process.cpuUsage();
          serverCpu = 0;
        }
        const start = performance.now();
        // biome-ignore lint/suspicious/noExplicitAny: each case checks its own result's shape
        const result: any = await c.call();
        if (i >= warmup) times.push(performance.now() - start);
        if (i === 0 || i === warmup + calls - 1) shape = c.check(result);
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `${args.engine} ${c.name} (${shape}): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms${c.target ? `, target ${c.target} ms` : ''}; CPU ${((used.user + used.system) / 1000 / calls).toFixed(1)} ms a call (server ${(serverCpu / 1000 / calls).toFixed(1)}); load average ${load()}`,
      );
    }
    // Where a statement PDF's second goes: the model read from the database, then the drawing.
    const split = { model: [] as number[], render: [] as number[] };
    for (let i = 0; i < 10; i++) {
      let start = performance.now();
      const model = await statementPdfModel(t.db, owner.orgId, statementClient.id, period.from, period.to);
      split.model.push(performance.now() - start);
      start = performance.now();
      await renderStatementPdf(model);
      split.render.push(performance.now() - start);
    }
    console.log(
      `${args.engine} statement PDF in the process: model p50 ${quantile(split.model, 0.5).toFixed(1)} ms, render p50 ${quantile(split.render, 0.5).toFixed(1)} ms`,
    );
    if (!args['skip-explain'])
      await explainBilling(t.db, owner, {
        wipClientId: wipClient.client_id,
        statementClientId: statementClient.id,
        period,
      });
  } finally {
    await t.close();
    await drop();
  }
}

await main();
process.exit(0);
