// npx tsx bench/reports.ts [--engine postgres|pglite] [--members 500] [--entries 5000000] [--calls 30]
//   [--skip-explain] [--keep | --database bench_reports_…]
// Issue 23's speed targets on the large firm (20,000 clients, 500,000 tasks, the people-and-time
// generator's time entries), each a lone request through tRPC with a real token: every report's first
// page ≤ 150 ms on PostgreSQL and ≤ 300 ms on PGlite; the compliance grid for 20,000 clients × 12 months,
// 100 clients a page, ≤ 300 ms; an export of 20,000 rows with server memory growth ≤ 50 MB.
// PostgreSQL gets a fresh database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// dropped afterwards (--keep leaves it; --database NAME measures a kept one again without generating).

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { addDays, todayIn } from '../src/domain/days';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { members as membersTable, orgs } from '../src/server/db/schema';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { generateClientBook } from './generate-clients';
import { generatePeople, rowsOf } from './generate-people';
import { generateWork } from './generate-work';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    members: { type: 'string', default: '500' },
    entries: { type: 'string', default: '5000000' },
    calls: { type: 'string', default: '30' },
    'skip-explain': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const CALLS = Number(args.calls);
const WARMUP = 5;
const FIRM = 'Reports bench';
const GRID_SERVICE = 'GST Return (monthly, every client)';

async function openDatabase(): Promise<{ database: TDatabase; fresh: boolean; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), fresh: true, drop: async () => {} };
  if (args.engine !== 'postgres') throw new Error(`unknown engine ${args.engine}`);
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = args.database ?? `bench_reports_${randomBytes(4).toString('hex')}`;
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

/**
 * One monthly service every client is engaged for, with a project for each of the last twelve months
 * made as the recurring job makes them (period key, engagement), in the statuses a year of work
 * leaves: most filed, recent months under way, some overdue, a few never started.
 */
async function gridWork(db: Awaited<ReturnType<typeof createTestApp>>['db'], orgId: string, today: string) {
  const monthStart = `${today.slice(0, 7)}-01`;
  await db.execute(sql`
    insert into services (id, org_id, name, code, frequency) values (gen_random_uuid(), ${orgId}, ${GRID_SERVICE}, 'GSTM', 'monthly')`);
  await db.execute(sql`
    insert into client_services (id, org_id, client_id, service_id, start_date)
    select gen_random_uuid(), c.org_id, c.id, s.id, ${monthStart}::date - interval '2 years'
    from clients c join services s on s.org_id = c.org_id and s.name = ${GRID_SERVICE}
    where c.org_id = ${orgId}`);
  await db.execute(sql`
    with m as (select g, (date_trunc('month', ${monthStart}::date) - (g || ' months')::interval)::date as start
               from generate_series(0, 11) g),
    e as (select cs.*, hashint8(hashtext(cs.client_id::text)) & 2147483647 as r from client_services cs
          join services s on s.org_id = cs.org_id and s.id = cs.service_id and s.name = ${GRID_SERVICE}
          where cs.org_id = ${orgId})
    insert into projects (id, org_id, client_id, service_id, client_service_id, name, period_key, period_start,
                          period_end, due_date, status, completed_date)
    select gen_random_uuid(), e.org_id, e.client_id, e.service_id, e.id, ${GRID_SERVICE} || ' · ' || to_char(m.start, 'Mon YYYY'),
      to_char(m.start, 'YYYY-MM'), m.start, (m.start + interval '1 month - 1 day')::date,
      (m.start + interval '1 month 19 days')::date,
      case when m.g >= 2 and (e.r + m.g) % 20 <> 0 then 'COMPLETED'
           when m.g = 0 then (array['SCHEDULED','IN_PROGRESS','IN_REVIEW'])[1 + (e.r % 3)]
           else (array['IN_PROGRESS','IN_REVIEW','COMPLETED'])[1 + ((e.r + m.g) % 3)] end,
      case when m.g >= 2 and (e.r + m.g) % 20 <> 0 then (m.start + interval '1 month 15 days') end
    from e cross join m
    where (e.r + m.g) % 50 <> 7`);
}

async function main() {
  const { database, fresh, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const today = todayIn('Asia/Kolkata');
    let owner: { id: string; token: string; orgId: string };
    if (fresh) {
      const firm = await t.seedFirm(FIRM);
      const start = performance.now();
      const people = await generatePeople(t.db, firm.org.id, {
        members: Number(args.members),
        years: 2,
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
        { clients: 20_000, groups: 200, services: 40, engagements: 60_000 },
        1,
      );
      const work = await generateWork(t.db, firm.org.id, { projects: 60_000, tasks: 500_000 });
      await gridWork(t.db, firm.org.id, today);
      await t.db.execute(sql`vacuum analyze`);
      console.log(
        `${args.engine}: ${people.members} members, ${people.entries.toLocaleString('en')} entries, 22,000 clients, ${work.tasks.toLocaleString('en')} + 16,000 tasks, the grid's 240,000 projects in ${((performance.now() - start) / 1000).toFixed(0)} s`,
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
    const [grid] = rowsOf<{ id: string }>(
      await t.db.execute(
        sql`select id from services where org_id = ${owner.orgId} and name = ${GRID_SERVICE}`,
      ),
    );
    if (!grid) throw new Error('no grid service');
    const monthStart = `${today.slice(0, 7)}-01`;
    const yearAgo = `${addDays(monthStart, -335).slice(0, 7)}-01`;
    const period = {
      from: addDays(monthStart, -61).slice(0, 8).concat('01'),
      to: addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1),
    };
    const cases = [
      {
        name: 'reports.headlines',
        target: 150,
        call: () => api.reports.headlines.query(),
        check: (r: { clientsBehind: number }) => `${r.clientsBehind} clients behind`,
      },
      {
        name: 'reports.clientSummary',
        target: 150,
        call: () => api.reports.clientSummary.query(period),
        check: (r: { total: number }) => `${r.total} clients`,
      },
      {
        // Sorted by a measure, every covered client is measured to find the first page.
        name: 'reports.clientSummary by overdue',
        target: 150,
        call: () => api.reports.clientSummary.query({ ...period, sort: 'overdue', direction: 'desc' }),
        check: (r: { total: number }) => `${r.total} clients`,
      },
      {
        name: 'reports.teamSummary',
        target: 150,
        call: () => api.reports.teamSummary.query(period),
        check: (r: { total: number }) => `${r.total} members`,
      },
      {
        name: 'reports.servicesSummary',
        target: 150,
        call: () => api.reports.servicesSummary.query(period),
        check: (r: { total: number }) => `${r.total} services`,
      },
      {
        name: 'reports.complianceGrid (12 months, 100 a page)',
        target: 300,
        call: () =>
          api.reports.complianceGrid.query({
            from: yearAgo,
            to: addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1),
            serviceId: grid.id,
          }),
        check: (r: { total: number; periods: unknown[] }) =>
          `${r.total} clients × ${r.periods.length} periods`,
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let shape = '';
      let cpu = process.cpuUsage();
      for (let i = 0; i < WARMUP + CALLS; i++) {
        if (i === WARMUP) cpu = process.cpuUsage();
        const start = performance.now();
        // biome-ignore lint/suspicious/noExplicitAny: each case checks its own result's shape
        const result: any = await c.call();
        if (i >= WARMUP) times.push(performance.now() - start);
        shape = c.check(result);
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `${args.engine} ${c.name} (${shape}): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target ${c.target} ms; CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(1)} ms a call; load average ${load()}`,
      );
    }
    // The export: every client of the firm, its memory growth read from this process (server and
    // client), and the longest a health check (one `select 1`) waited meanwhile: how long the export
    // held the database from other requests (PGlite runs one statement at a time).
    for (const sort of ['name', 'overdue'] as const) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      let exporting = true;
      let longestWait = 0;
      const probing = (async () => {
        while (exporting) {
          const asked = performance.now();
          await fetch(`${t.url}/api/health`);
          longestWait = Math.max(longestWait, performance.now() - asked);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const start = performance.now();
      const query = new URLSearchParams({ ...period, sort, direction: 'desc' }).toString();
      const res = await fetch(`${t.url}/api/reports/client/export.csv?${query}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      const ms = performance.now() - start;
      exporting = false;
      await probing;
      clearInterval(timer);
      console.log(
        `${args.engine} client summary export by ${sort} (${res.headers.get('x-total-count')} rows, ${(bytes / 1e6).toFixed(1)} MB): ${ms.toFixed(0)} ms, RSS growth ${((peak - before) / 1e6).toFixed(0)} MB, longest health-check wait ${longestWait.toFixed(0)} ms`,
      );
    }
    if (!args['skip-explain']) {
      const plan = rowsOf<Record<string, string>>(
        await t.db.execute(sql`explain (analyze, buffers)
          select count(*) filter (where t.completed_date is null and t.due_date < now()::date), count(*)
          from tasks t where t.org_id = ${owner.orgId} and t.due_date between ${period.from} and ${period.to}`),
      ).map((r) => Object.values(r)[0]);
      console.log(`\n— client summary: tasks due in the period\n${plan.join('\n')}`);
    }
  } finally {
    await t.close();
    await drop();
  }
}

await main();
process.exit(0);
