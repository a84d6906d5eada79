// npx tsx bench/statutory.ts [--engine postgres|pglite] [--clients 20000] [--calls 30] [--keep]
// Issue 39's speed target on the large firm: the statutory gaps (what each client must file by its
// registrations and has no engagement for), first page ≤ 150 ms p50 alone on PostgreSQL, a lone
// tRPC call with a real token. The firm: the client book of 20,000 clients with 40 services and
// 60,000 engagements; eight services linked to filings (GSTR-1, GSTR-3B monthly and QRMP, 26Q,
// ITR non-audit and audit, tax audit, AOC-4); nine clients in ten registered (PAN; a GSTIN on two
// in three, some QRMP, in several states; a TAN on a third; companies with a CIN; a tenth audited).
// PostgreSQL gets a fresh database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// dropped afterwards (--keep leaves it).

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { generateClientBook } from './generate-clients';
import { rowsOf } from './generate-people';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    clients: { type: 'string', default: '20000' },
    calls: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const CALLS = Number(args.calls);
const CLIENTS = Number(args.clients);
const WARMUP = 30;
const LINKS = [
  'IN.GSTR1.M',
  'IN.GSTR3B.M',
  'IN.GSTR3B.Q.A',
  'IN.TDS.26Q',
  'IN.ITR.NONAUDIT',
  'IN.ITR.AUDIT',
  'IN.TAR',
  'IN.ROC.AOC4',
];

async function openDatabase(): Promise<{ database: TDatabase; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), drop: async () => {} };
  if (args.engine !== 'postgres') throw new Error(`unknown engine ${args.engine}`);
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_statutory_${randomBytes(4).toString('hex')}`;
  await createDatabase(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    database: await openPostgres(target.toString()),
    drop: async () => {
      if (args.keep) console.log(`kept database ${name}`);
      else await dropDatabase(url, name);
    },
  };
}

async function main() {
  const { database, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const firm = await t.seedFirm('Statutory bench');
    const orgId = firm.org.id;
    const members = rowsOf<{ id: string }>(
      await t.db.execute(sql`select id from members where org_id = ${orgId}::uuid`),
    ).map((r) => r.id);
    const start = performance.now();
    await generateClientBook(
      t.db,
      orgId,
      members,
      { clients: CLIENTS, groups: 200, services: 40, engagements: 60_000 },
      1,
    );
    // Eight of the firm's services each linked to a filing: a client engaged for one of them has no
    // gap for that filing.
    await t.db.execute(sql`
      update services s set statutory_filing_code = l.code
      from (select id, row_number() over (order by id) as n from services where org_id = ${orgId}::uuid) x
      join unnest(${`{${LINKS.join(',')}}`}::text[]) with ordinality as l(code, n) on l.n = x.n
      where s.id = x.id`);
    // Registrations, set-based; the identifiers need only the shapes the rules read.
    await t.db.execute(sql`
      insert into client_registrations (org_id, client_id, gstin, gst_state, gst_scheme, pan, tan, cin, tax_audit)
      select c.org_id, c.id,
        case when h % 3 <> 0 then lpad((h % 37 + 1)::text, 2, '0') || 'ABCDE' || lpad((h % 10000)::text, 4, '0') || 'F1Z5' end,
        case when h % 3 <> 0 then lpad((h % 37 + 1)::text, 2, '0') end,
        case when h % 3 <> 0 then (case when h % 5 = 0 then 'qrmp' else 'regular' end) end,
        'ABCDE' || lpad((h % 10000)::text, 4, '0') || 'F',
        case when h % 3 = 1 then 'MUMA' || lpad((h % 100000)::text, 5, '0') || 'B' end,
        case when c.type = 'company' then 'U74999MH2015PTC' || lpad((h % 1000000)::text, 6, '0') end,
        h % 10 = 0
      from (select c.*, abs(hashtext(c.id::text)) as h from clients c where c.org_id = ${orgId}::uuid) c
      where c.h % 10 <> 9`);
    await t.db.execute(sql`vacuum analyze`);
    const [counts] = rowsOf<{ registered: number; linked: number }>(
      await t.db.execute(sql`
        select (select count(*)::int from client_registrations where org_id = ${orgId}::uuid) as registered,
               (select count(*)::int from client_services cs join services s on s.id = cs.service_id
                 where cs.org_id = ${orgId}::uuid and s.statutory_filing_code is not null) as linked`),
    );
    console.log(
      `${args.engine}: ${CLIENTS.toLocaleString('en')} clients, ${counts?.registered.toLocaleString('en')} registered, ${counts?.linked.toLocaleString('en')} engagements of linked services, in ${((performance.now() - start) / 1000).toFixed(0)} s`,
    );
    const api = t.client(firm.owner.token);
    const cases = [
      { name: 'statutory.gaps (first page)', target: 150, call: () => api.statutory.gaps.query({}) },
      {
        name: 'statutory.gaps (GSTR-3B monthly)',
        target: 150,
        call: () => api.statutory.gaps.query({ filingCode: 'IN.GSTR3B.M' }),
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let shape = '';
      let cpu = process.cpuUsage();
      for (let i = 0; i < WARMUP + CALLS; i++) {
        if (i === WARMUP) cpu = process.cpuUsage();
        const begin = performance.now();
        const result = await c.call();
        if (i >= WARMUP) times.push(performance.now() - begin);
        if (i === 0) shape = `${result.rows.length} of ${result.total}`;
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `${args.engine} ${c.name} (${shape}): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target ${c.target} ms; CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(1)} ms a call; load average ${load()}`,
      );
    }
  } finally {
    await t.close();
    await drop();
  }
}

await main();
process.exit(0);
