// npx tsx bench/scale.ts [--reuse] [--generate-only] [--calls 30] [--firms 1,3,1000] [--skip-explain] [--only name]
// Issue 42, "Scale past one firm": 1,000 firms on one PostgreSQL database (bench/generate-scale.ts:
// about a million clients, ten million tasks, twenty million time entries), then every screen's first
// request, each a lone call through the real router over HTTP with a real token, p50/p95 over N calls,
// for a large and a small firm. The database is BENCH_SCALE_URL (default
// postgres://postgres@127.0.0.1:5432/practice_scale); the product's migrations run on it first.
// --reuse keeps a complete generated database and only measures; without it the database is dropped
// and generated again (about half an hour on two cores).

import http from 'node:http';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import superjson from 'superjson';
import { addDays, todayIn, weekStartOf } from '../src/domain/days';
import { openPostgres } from '../src/server/db/client';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { rowsOf } from './generate-people';
import { checkKeys, clientsOf, FIRM_PREFIX, generateScale, PHASES, type TPhase } from './generate-scale';
import { queryPath } from './protocol';
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

type TCase = {
  target: number;
  procedure: string;
  input?: unknown;
  check: (r: never) => string;
};

/**
 * One call as the web app's httpBatchLink sends it (a batch of one, superjson input), over a kept
 * connection, read as bytes: the same request bench/run.ts times "alone", so the figures compare
 * with the single-firm bench's. A tRPC client here would add its own work to each call (building
 * the request, superjson on the answer) in the process that also serves it.
 */
function caller(base: string, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (procedure: string, input?: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        `${base}${queryPath(procedure, input)}`,
        { agent, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
}

/** The answer of a batch of one, as the client would read it. */
function answerOf(body: string): unknown {
  const [first] = JSON.parse(body) as { result?: { data: never }; error?: { json?: { message?: string } } }[];
  if (!first?.result) throw new Error(first?.error?.json?.message ?? body.slice(0, 300));
  return superjson.deserialize(first.result.data);
}

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
      const call = caller(t.url, await t.tokenFor(owner.sub));
      const cases: TCase[] = [
        { target: 10, procedure: 'dashboard.summary', check: () => '' },
        {
          target: 10,
          procedure: 'clients.list',
          input: {},
          check: (r: { total: number }) => `${r.total} clients`,
        },
        {
          target: 10,
          procedure: 'tasks.list',
          input: {},
          check: (r: { total: number }) => `${r.total} tasks`,
        },
        {
          target: 10,
          procedure: 'projects.list',
          input: {},
          check: (r: { total: number }) => `${r.total} projects`,
        },
        {
          target: 10,
          procedure: 'services.list',
          input: {},
          check: (r: { total?: number; rows?: unknown[] } | unknown[]) =>
            `${Array.isArray(r) ? r.length : (r.total ?? r.rows?.length)} services`,
        },
        {
          target: 10,
          procedure: 'team.list',
          input: {},
          check: (r: { total?: number } | unknown[]) => `${Array.isArray(r) ? r.length : r.total} members`,
        },
        {
          target: 10,
          procedure: 'systemLog.list',
          input: {},
          check: (r: { total: number }) => `${r.total} entries`,
        },
        {
          target: 20,
          procedure: 'timesheets.myWeek',
          input: { weekStart: addDays(weekStart, -7) },
          check: (r: { entries: unknown[] }) => `${r.entries.length} entries`,
        },
        {
          target: 100,
          procedure: 'timesheets.teamWeek',
          input: { weekStart: addDays(weekStart, -7) },
          check: (r: { members: unknown[] }) => `${r.members.length} members`,
        },
        {
          target: 150,
          procedure: 'reports.headlines',
          check: () => '',
        },
        {
          target: 150,
          procedure: 'reports.clientSummary',
          input: period,
          check: (r: { total: number }) => `${r.total} clients`,
        },
        {
          target: 150,
          procedure: 'reports.teamSummary',
          input: period,
          check: (r: { total: number }) => `${r.total} members`,
        },
        {
          target: 150,
          procedure: 'reports.servicesSummary',
          input: period,
          check: (r: { total: number }) => `${r.total} services`,
        },
        {
          target: 20,
          procedure: 'billing.invoices.list',
          input: {},
          check: (r: { total: number }) => `${r.total} invoices`,
        },
        {
          target: 150,
          procedure: 'billing.receivables.aging',
          input: {},
          check: (r: { total: number }) => `${r.total} clients`,
        },
        {
          target: 20,
          procedure: 'billing.payments.list',
          input: {},
          check: (r: { total: number }) => `${r.total} payments`,
        },
      ];
      for (const c of cases) {
        if (args.only && !c.procedure.includes(args.only)) continue;
        const times: number[] = [];
        let shape = '';
        try {
          for (let i = 0; i < WARMUP + CALLS; i++) {
            const start = performance.now();
            const { status, body } = await call(c.procedure, c.input);
            if (i >= WARMUP) times.push(performance.now() - start);
            if (status !== 200) throw new Error(`${status} ${body.slice(0, 300)}`);
            if (i === 0) shape = c.check(answerOf(body) as never);
          }
        } catch (error) {
          console.log(`firm ${f} ${c.procedure}: FAILED ${(error as Error).message.slice(0, 300)}`);
          continue;
        }
        const p50 = quantile(times, 0.5);
        console.log(
          `firm ${f} (${clientsOf(f)} clients) ${c.procedure} (${shape}): p50 ${p50.toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target ${c.target} ms${p50 > c.target ? ' MISSED' : ''}; load average ${load()}`,
        );
      }
    }
  } finally {
    await t.close();
  }
}

await main();
process.exit(0);
