// The cost per API call of counting the rate limit for the whole deployment: the same Fastify app
// (cookie parsing and the rate limit as the server registers them, one route answering `{}`) with
// the count in memory (embedded PGlite), in PostgreSQL (an upsert per call) and in Redis (one
// script call). Server and load in one process; autocannon on loopback.
//
//   npx tsx bench/rate-limit.ts [--duration 10] [--connections 10]
//   BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL (default redis://127.0.0.1:6379)
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import cookie from '@fastify/cookie';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { registerRateLimit } from '../src/server/http/rate-limit';
import { createDatabase, dropDatabase } from '../src/server/test/templates';

const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } },
});
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function measure(label: string, database: TDatabase, redisUrl?: string) {
  const app = Fastify({ logger: false });
  await app.register(cookie);
  await registerRateLimit(app, { rateLimitPerMinute: 1_000_000_000, redisUrl }, database);
  app.get('/api/bench', { config: { auth: 'public' } }, async () => ({}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/bench`;
  // Each connection is a caller of its own (a signed-in member), counted on their own row or key.
  let callers = 0;
  const run = (duration: number) =>
    autocannon({
      url,
      connections: Number(args.connections),
      duration,
      setupClient: (client) => {
        const sub = `bench-${label}-${callers++}`;
        client.setHeaders({
          authorization: `Bearer e30.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.x`,
        });
      },
    });
  await run(2);
  const cpu = process.cpuUsage();
  const result = await run(Number(args.duration));
  const used = process.cpuUsage(cpu);
  await app.close();
  const per = result.requests.total || 1;
  console.log(
    `${label.padEnd(12)} ${String(Math.round(result.requests.average)).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  CPU ${Math.round((used.user + used.system) / per)} µs/req (this process)`,
  );
  return result;
}

async function main() {
  const memory = await openPglite();
  await measure('memory', memory);
  const name = `bench_rl_${randomBytes(4).toString('hex')}`;
  await createDatabase(PG, name);
  const target = new URL(PG);
  target.pathname = `/${name}`;
  const pg = await openPostgres(target.toString());
  try {
    await measure('postgresql', pg);
    await measure('redis', memory, REDIS);
  } finally {
    await pg.close();
    await memory.close();
    await dropDatabase(PG, name);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
