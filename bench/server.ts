// The server side of the benchmark, run as a child process so it has an event loop (and a core) of
// its own: the real app from buildApp over a freshly generated database, plus one bare route.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { sql } from 'drizzle-orm';
import { ZSystemLogListInput } from '../src/domain/system-log';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { callBatching } from '../src/server/db/batching';
import { openPglite, openPostgres, setPgliteTurns } from '../src/server/db/client';
import { listSystemLog } from '../src/server/features/system-log';
import { signTokens } from '../src/server/idp/tokens';
import { findFirms, generateFirms, type TGeneratedFirm } from './generate';
import { BENCH_INPUT, type TBenchFirm, type TServerCommand, type TServerReady } from './protocol';

async function main() {
  const { BENCH_DATABASE_URL, BENCH_PGLITE_DIR } = process.env;
  const database = BENCH_DATABASE_URL
    ? await openPostgres(BENCH_DATABASE_URL)
    : await openPglite(BENCH_PGLITE_DIR);
  const started = performance.now();
  // A kept database (run.ts --database / --pglite-dir) is generated once and reused.
  const found = process.env.BENCH_REUSE ? await findFirms(database.db) : null;
  const [large, small] = found ?? (await generateFirms(database.db));
  // A migration since may have rewritten rows; autovacuum would have set the visibility map again.
  if (found) await database.db.execute(sql`vacuum analyze`);
  if (!large || !small) throw new Error('firms not generated');
  const firms: Record<TBenchFirm, TGeneratedFirm> = { large, small };
  const generateMs = performance.now() - started;

  const config = loadConfig({
    NODE_ENV: 'production',
    // Production's default level: every request is logged (two lines) to stdout, which the parent
    // points at a file.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    PUBLIC_URL: 'http://127.0.0.1',
    DATA_DIR: BENCH_PGLITE_DIR ?? '/nonexistent-bench-data-dir',
    // The limiter stays on as in production, only raised so one loopback client is not throttled.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    // No background jobs: the hourly recurring run would start generating a month of projects for
    // the large firm's 60,000 engagements in the middle of the measurements.
    JOBS_ENABLED: 'false',
  });
  const { app, keys, staffAuth } = await buildApp({ config, database });
  if (!keys) throw new Error('the bench runs on the embedded identity provider');

  // The same SQL as systemLog.list, as plain JSON: no tRPC, no auth, no superjson.
  const input = ZSystemLogListInput.parse(BENCH_INPUT);
  app.get<{ Params: { firm: TBenchFirm } }>('/bench/system-log/:firm', (req, reply) => {
    const firm = firms[req.params.firm];
    if (!firm) return reply.code(404).send({ error: 'no such firm' });
    return listSystemLog(
      database.db,
      { orgId: firm.orgId, memberId: firm.owner.memberId, assignedClientsOnly: false },
      input,
    );
  });

  const mint = async (firm: TGeneratedFirm) => {
    const { accessToken } = await signTokens(keys, {
      issuer: staffAuth.issuer,
      clientId: config.idp.clientId,
      subject: {
        sub: firm.owner.sub,
        username: firm.owner.sub,
        email: `owner@${firm.orgId}.bench.test`,
        emailVerified: true,
        authTime: Math.floor(Date.now() / 1000),
        originJti: randomUUID(),
      },
    });
    return accessToken;
  };
  const tokens = { large: await mint(large), small: await mint(small) };

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const profiler = new Session();
  process.on('message', async (msg: TServerCommand) => {
    if (msg.type === 'cpu') {
      process.send?.({ type: 'cpu', usage: process.cpuUsage() });
    } else if (msg.type === 'knob') {
      if (msg.name === 'turns') setPgliteTurns(msg.on);
      else callBatching.on = msg.on;
      process.send?.({ type: 'knob' });
    } else if (msg.type === 'profile-start') {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.post('Profiler.start');
      process.send?.({ type: 'profiling' });
    } else if (msg.type === 'profile-stop') {
      const { profile } = await profiler.post('Profiler.stop');
      fs.writeFileSync(msg.file, JSON.stringify(profile));
      profiler.disconnect();
      process.send?.({ type: 'profiled' });
    } else if (msg.type === 'close') {
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready', port, tokens, generateMs, engine: database.engine } satisfies TServerReady);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
