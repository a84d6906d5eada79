// npx tsx bench/scale.ts [--reuse] [--generate-only] [--calls 30] [--firms 1,3,1000] [--skip-explain] [--only name]
// Issue 42, "Scale past one firm": 1,000 firms on one PostgreSQL database (bench/generate-scale.ts:
// about a million clients, ten million tasks, twenty million time entries), then every screen's first
// request, each a lone call through the real router over HTTP with a real token, p50/p95 over N calls,
// for a large and a small firm. The database is BENCH_SCALE_URL (default
// postgres://postgres@127.0.0.1:5432/practice_scale); the product's migrations run on it first.
// --reuse keeps a complete generated database and only measures; without it the database is dropped
// and generated again (about half an hour on two cores).

import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { addDays, todayIn, weekStartOf } from '../src/domain/days';
import { openPostgres } from '../src/server/db/client';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { rowsOf } from './generate-people';
import { checkKeys, clientsOf, FIRM_PREFIX, generateScale, PHASES, type TPhase } from './generate-scale';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    reuse: { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
    'skip-keys': { type: 'boolean', default: false },
    calls: { type: 'string', default: '30' },
    firms: { type: 'string', default: '1,3,1000' },
    only: { type: 'string' },
    phases: { type: 'string' },
  },
});
const CALLS = Number(args.calls);
const WARMUP = 5;
const URL_ = process.env.BENCH_SCALE_URL ?? 'postgres://postgres@127.0.0.1:5432/practice_scale';
const COMPLETE = 'complete';

const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

async function complete(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    const { rows } = await client.query(`select obj_description('bench_scale_firms'::regclass) as note`);
    return (rows[0] as { note: string | null } | undefined)?.note === COMPLETE;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

async function generate(today: string) {
  if (args.phases) {
    // Phases of the load on a database made by an earlier run: see PHASES (several may run at once).
    // `finish` alone: the keys checked, VACUUM ANALYZE, the database marked complete.
    const phases = args.phases.split(',').filter((p) => p !== 'finish') as TPhase[];
    if (phases.some((p) => !PHASES.includes(p))) throw new Error(`phases are ${PHASES.join(', ')}, finish`);
    const client = new pg.Client({ connectionString: URL_ });
    await client.connect();
    try {
      await generateScale(client, today, log, phases);
      const whole = phases.includes('indexes') && !process.env.BENCH_SCALE_INDEX_PART;
      if (whole || args.phases.split(',').includes('finish')) await finish(client, performance.now());
    } finally {
      await client.end();
    }
    return;
  }
  const target = new URL(URL_);
  const name = target.pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a database name: ${name}`);
  const admin = new URL(URL_);
  admin.pathname = '/postgres';
  await dropDatabase(admin.toString(), name).catch(() => {});
  await createDatabase(admin.toString(), name);
  const migrated = await openPostgres(URL_);
  await migrated.close();
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  const start = performance.now();
  try {
    await generateScale(client, today, log);
    log(`generated in ${((performance.now() - start) / 60000).toFixed(1)} min`);
    await finish(client, start);
  } finally {
    await client.end();
  }
}

/** The keys checked, statistics gathered, and the database marked complete for --reuse. */
async function finish(client: pg.Client, start: number) {
  {
    if (!args['skip-keys']) {
      const bad = await checkKeys(client, log);
      if (bad > 0) throw new Error(`${bad} rows break a foreign key`);
    }
    const analyse = performance.now();
    await client.query('vacuum analyze');
    log(`vacuum analyze in ${((performance.now() - analyse) / 1000).toFixed(0)} s`);
    await client.query(`comment on table bench_scale_firms is '${COMPLETE}'`);
    const { rows } = await client.query(`
      select (select count(*) from orgs) as firms, (select count(*) from members) as members,
        (select count(*) from clients) as clients, (select count(*) from projects) as projects,
        (select count(*) from tasks) as tasks, (select count(*) from timesheet_entries) as entries,
        (select count(*) from invoices) as invoices, pg_size_pretty(pg_database_size(current_database())) as size`);
    log(`total ${((performance.now() - start) / 60000).toFixed(1)} min: ${JSON.stringify(rows[0])}`);
  }
}

async function main() {
  const today = todayIn('Asia/Kolkata');
  if (!(args.reuse && (await complete(URL_)))) await generate(today);
  if (args['generate-only'] || args.phases) return;
  await measure(today);
}

type TCase = { name: string; target: number; call: () => Promise<unknown>; check: (r: never) => string };

async function measure(today: string) {
  const database = await openPostgres(URL_);
  const t = await createTestApp({}, { database });
  try {
    const weekStart = weekStartOf(today);
    const monthStart = `${today.slice(0, 7)}-01`;
    const period = {
      from: addDays(monthStart, -61).slice(0, 8).concat('01'),
      to: addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1),
    };
    for (const f of args.firms.split(',').map(Number)) {
      const name = `${FIRM_PREFIX}${String(f).padStart(4, '0')}`;
      const [owner] = rowsOf<{ org_id: string; id: string; sub: string }>(
        await t.db.execute(
          sql`select o.id as org_id, m.id, m.sub from orgs o join members m on m.org_id = o.id and m.is_owner where o.name = ${name}`,
        ),
      );
      if (!owner) throw new Error(`no firm ${name}`);
      const api = t.client(await t.tokenFor(owner.sub));
      const cases: TCase[] = [
        { name: 'dashboard.summary', target: 10, call: () => api.dashboard.summary.query(), check: () => '' },
        {
          name: 'clients.list',
          target: 10,
          call: () => api.clients.list.query({}),
          check: (r: { total: number }) => `${r.total} clients`,
        },
        {
          name: 'tasks.list',
          target: 10,
          call: () => api.tasks.list.query({}),
          check: (r: { total: number }) => `${r.total} tasks`,
        },
        {
          name: 'projects.list',
          target: 10,
          call: () => api.projects.list.query({}),
          check: (r: { total: number }) => `${r.total} projects`,
        },
        {
          name: 'services.list',
          target: 10,
          call: () => api.services.list.query({}),
          check: (r: { total?: number; rows?: unknown[] } | unknown[]) =>
            `${Array.isArray(r) ? r.length : (r.total ?? r.rows?.length)} services`,
        },
        {
          name: 'team.list',
          target: 10,
          call: () => api.team.list.query({}),
          check: (r: { total?: number } | unknown[]) => `${Array.isArray(r) ? r.length : r.total} members`,
        },
        {
          name: 'systemLog.list',
          target: 10,
          call: () => api.systemLog.list.query({}),
          check: (r: { total: number }) => `${r.total} entries`,
        },
        {
          name: 'timesheets.myWeek',
          target: 20,
          call: () => api.timesheets.myWeek.query({ weekStart: addDays(weekStart, -7) }),
          check: (r: { entries: unknown[] }) => `${r.entries.length} entries`,
        },
        {
          name: 'timesheets.teamWeek',
          target: 100,
          call: () => api.timesheets.teamWeek.query({ weekStart: addDays(weekStart, -7) }),
          check: (r: { members: unknown[] }) => `${r.members.length} members`,
        },
        {
          name: 'reports.headlines',
          target: 150,
          call: () => api.reports.headlines.query(),
          check: () => '',
        },
        {
          name: 'reports.clientSummary',
          target: 150,
          call: () => api.reports.clientSummary.query(period),
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
          name: 'billing.invoices.list',
          target: 20,
          call: () => api.billing.invoices.list.query({}),
          check: (r: { total: number }) => `${r.total} invoices`,
        },
        {
          name: 'billing.receivables.aging',
          target: 150,
          call: () => api.billing.receivables.aging.query({}),
          check: (r: { total: number }) => `${r.total} clients`,
        },
        {
          name: 'billing.payments.list',
          target: 20,
          call: () => api.billing.payments.list.query({}),
          check: (r: { total: number }) => `${r.total} payments`,
        },
      ];
      for (const c of cases) {
        if (args.only && !c.name.includes(args.only)) continue;
        const times: number[] = [];
        let shape = '';
        try {
          for (let i = 0; i < WARMUP + CALLS; i++) {
            const start = performance.now();
            const result = await c.call();
            if (i >= WARMUP) times.push(performance.now() - start);
            shape = c.check(result as never);
          }
        } catch (error) {
          console.log(`firm ${f} ${c.name}: FAILED ${(error as Error).message.slice(0, 300)}`);
          continue;
        }
        const p50 = quantile(times, 0.5);
        console.log(
          `firm ${f} (${clientsOf(f)} clients) ${c.name} (${shape}): p50 ${p50.toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target ${c.target} ms${p50 > c.target ? ' MISSED' : ''}; load average ${load()}`,
        );
      }
    }
  } finally {
    await t.close();
  }
}

await main();
process.exit(0);
