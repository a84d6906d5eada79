// npx tsx bench/pglite-yield.ts — what PGlite's event-loop turn before each statement
// (db/client.ts yieldBeforeEachQuery) costs: in-process PGlite, "requests" of six primary-key
// lookups, one at a time and ten at once, with no turn, a turn before every statement (the
// product's), and a turn only after 8 ms without one. Per-request latency and this process's CPU.
import { PGlite } from '@electric-sql/pglite';
import { quantile } from './stats';

const client = await PGlite.create();
await client.exec(
  'create table t (id int primary key, v text); insert into t select g, md5(g::text) from generate_series(1, 20000) g',
);
const raw = client.query.bind(client);
type Q = (q: string, p?: unknown[]) => Promise<unknown>;
const always: Q = async (q, p) => {
  await new Promise<void>((r) => setImmediate(r));
  return raw(q, p);
};
// A turn only once the loop has gone 8 ms without one (tried for issue 42, and dropped: see README).
let lastTurn = performance.now();
let marking = false;
const budget: Q = async (q, p) => {
  if (performance.now() - lastTurn >= 8) {
    await new Promise<void>((r) => setImmediate(r));
    lastTurn = performance.now();
  }
  if (!marking) {
    marking = true;
    setImmediate(() => {
      marking = false;
      lastTurn = performance.now();
    });
  }
  return raw(q, p);
};
const none: Q = (q, p) => raw(q, p);
// A "request": 6 statements, like a staff call (auth, membership, page, count, ...), each an index lookup.
async function request(query: Q) {
  const t = performance.now();
  for (let i = 0; i < 6; i++)
    await query('select v from t where id = $1', [1 + Math.floor(Math.random() * 20000)]);
  return performance.now() - t;
}
async function run(name: string, query: Q, concurrency: number, total: number) {
  const lat: number[] = [];
  let n = 0;
  const t = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (n++ < total) lat.push(await request(query));
    }),
  );
  const el = performance.now() - t;
  const c = process.cpuUsage(cpu);
  console.log(
    `${name.padEnd(8)} c=${concurrency} req/s ${((total / el) * 1000).toFixed(0)} p50 ${quantile(lat, 0.5).toFixed(2)} ms p99 ${quantile(lat, 0.99).toFixed(2)} CPU µs/req ${((c.user + c.system) / total).toFixed(0)}`,
  );
}
for (let round = 0; round < 2; round++)
  for (const [name, q] of [
    ['none', none],
    ['always', always],
    ['budget', budget],
  ] as const) {
    await run(name, q, 1, 2000);
    await run(name, q, 10, 4000);
  }
await client.close();
