// npx tsx bench/dashboard.ts (--database bench_dash | --pglite-dir dir) [--calls 50] [--explain]
// The home dashboard's statements in this process, without HTTP: over a database kept by
// `npm run bench -- --database …` / `--pglite-dir …`, times dashboardSummary for the large firm's
// owner and a member limited to assigned clients, and with --explain prints EXPLAIN ANALYZE of
// every statement it sends.
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import { openPglite, openPostgres, type TDb } from '../src/server/db/client';
import { dashboardSummary } from '../src/server/features/dashboard';
import { findFirms } from './generate';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string' },
    'pglite-dir': { type: 'string' },
    calls: { type: 'string', default: '50' },
    explain: { type: 'boolean', default: false },
  },
});
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main() {
  const url = new URL(PG_URL);
  if (args.database) url.pathname = `/${args.database}`;
  const database = args.database ? await openPostgres(url.toString()) : await openPglite(args['pglite-dir']);
  const db = database.db;
  const [large] = (await findFirms(db)) ?? [];
  if (!large)
    throw new Error('no generated firms here: run npm run bench with --database or --pglite-dir first');
  const owner = {
    orgId: large.orgId,
    memberId: large.owner.memberId,
    isOwner: true,
    permissions: [],
    assignedClientsOnly: false,
  };
  const rows = (r: unknown) =>
    (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, string>[];
  // A member with clients on their team stands for "assigned clients only" (the bench's Staff role).
  const [staff] = rows(
    await db.execute(sql`select m.id from members m join client_team ct on ct.org_id = m.org_id and ct.member_id = m.id
      where m.org_id = ${large.orgId} and not m.is_owner group by m.id order by count(*) desc, m.id limit 1`),
  );
  const limited = {
    ...owner,
    memberId: staff?.id ?? owner.memberId,
    isOwner: false,
    permissions: ['tasks.view', 'projects.view', 'systemLog.view'] as never[],
    assignedClientsOnly: true,
  };
  const summary = await dashboardSummary(db, owner);
  console.log(
    database.engine,
    'owner:',
    JSON.stringify({ tasks: counts(summary.tasks), projects: counts(summary.projects) }),
  );
  for (const [name, scope] of [
    ['owner', owner],
    ['assigned clients only', limited],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < Number(args.calls); i++) {
      const started = performance.now();
      await dashboardSummary(db, scope);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) =>
      (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
    console.log(
      `${database.engine} ${name}: dashboardSummary p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (${times.length} calls)`,
    );
  }
  // Each statement's share, run one after another (the service sends four of them at once).
  const spent = new Map<number, number[]>();
  for (let i = 0; i < Number(args.calls); i++) {
    let k = 0;
    const timed = new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'execute') return typeof value === 'function' ? value.bind(target) : value;
        return async (query: SQL) => {
          const n = k++;
          const started = performance.now();
          const result = await target.execute(query);
          spent.set(n, [...(spent.get(n) ?? []), performance.now() - started]);
          return result;
        };
      },
    });
    await dashboardSummary(timed, owner);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(
    `${database.engine} owner, raw statements in the order sent (median ms, concurrent): ${[...spent.values()].map((xs) => median(xs).toFixed(1)).join(', ')}`,
  );
  if (args.explain) {
    for (const scope of [owner, limited]) await dashboardSummary(explaining(db), scope);
  }
  await database.close();
}

const counts = (section: Record<string, unknown> | null) =>
  section &&
  Object.fromEntries(
    Object.entries(section).map(([k, v]) => [k, typeof v === 'object' ? (v as { total: number }).total : v]),
  );

/** The same db, printing the plan of every raw statement (the time-zone select is left as it is). */
function explaining(db: TDb): TDb {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'execute') return typeof value === 'function' ? value.bind(target) : value;
      return async (query: SQL) => {
        const plan = await target.execute(sql`explain (analyze, buffers) ${query}`);
        const lines = (Array.isArray(plan) ? plan : (plan as { rows: Record<string, string>[] }).rows).map(
          (r) => Object.values(r)[0],
        );
        console.log(`\n${lines.join('\n')}`);
        return target.execute(query);
      };
    },
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
