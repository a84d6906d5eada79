// npx tsx bench/broadcasts.ts [--recipients 20000] [--engine pglite|postgres] [--seconds 20] [--rate 10]
// Issue 24's targets for broadcasts: 20,000 recipients queued in ≤ 30 s; sending paced at the firm's
// rate with the process's memory growth ≤ 100 MB; PGlite's thread (this process's event loop, where
// PGlite runs) never blocked for long. Mail goes by SMTP (nodemailer, the product's mailer) to a
// real SMTP server on loopback that counts and discards what it gets. PGlite runs in memory;
// PostgreSQL gets a fresh database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../src/server/config';
import { rowsOf } from '../src/server/db/sql';
import {
  BROADCAST_PUMP,
  BROADCAST_QUEUE,
  createBroadcast,
  queueBroadcast,
  queueing,
  registerBroadcastJobs,
  summarize,
  updateSettings,
} from '../src/server/features/broadcasts';
import { createWorker } from '../src/server/jobs/worker';
import { createMailer } from '../src/server/mail';
import { createTestDatabase } from '../src/server/test/database';
import { tempDir } from '../tests/e2e/support/browser';

const { values: args } = parseArgs({
  options: {
    recipients: { type: 'string', default: '20000' },
    engine: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '20' },
    rate: { type: 'string', default: '10' },
    chunk: { type: 'string' },
  },
});
const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

async function sink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received++;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function main() {
  if (args.engine === 'postgres') {
    process.env.DATABASE_URL ??= process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  } else delete process.env.DATABASE_URL;
  const n = Number(args.recipients);
  const smtp = await sink();
  const database = await createTestDatabase();
  const db = database.db;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: tempDir('practice-bench-broadcasts-'),
    SMTP_URL: smtp.url,
    VAULT_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  try {
    const [firm] = rowsOf<{ org_id: string; member_id: string }>(
      await db.execute(sql`
        with o as (insert into orgs (id, name) values (gen_random_uuid(), 'Big firm') returning id),
        r as (insert into roles (id, org_id, name) select gen_random_uuid(), o.id, 'Owner' from o returning id, org_id),
        m as (insert into members (id, org_id, sub, email, first_name, role_id, is_owner, is_verified)
              select gen_random_uuid(), r.org_id, gen_random_uuid()::text, 'owner@bench.test', 'Olivia', r.id, true, true from r
              returning id, org_id)
        select org_id, id as member_id from m`),
    );
    if (!firm) throw new Error('firm not made');
    const orgId = firm.org_id;
    await db.execute(sql`
      insert into clients (id, org_id, code, name, email, tags)
      select gen_random_uuid(), ${orgId}, 'C' || g, 'Client ' || g, 'client' || g || '@bench.test',
        case when g % 10 = 0 then array['vip'] else '{}'::text[] end
      from generate_series(1, ${n}::int) g`);
    // A portal person for every fourth client: copied on its mail.
    await db.execute(sql`
      insert into client_users (id, org_id, email, name, status)
      select gen_random_uuid(), ${orgId}, 'person' || g || '@bench.test', 'Person ' || g, 'active'
      from generate_series(1, ${n}::int, 4) g`);
    await db.execute(sql`
      insert into client_user_clients (org_id, client_user_id, client_id)
      select ${orgId}, u.id, c.id from client_users u
      join clients c on c.org_id = u.org_id and c.code = 'C' || substring(u.email from 'person(\\d+)@')
      where u.org_id = ${orgId}`);
    const scope = {
      orgId,
      memberId: firm.member_id,
      isOwner: true,
      permissions: [],
      assignedClientsOnly: false,
    };
    const rate = Number(args.rate);
    await updateSettings(db, scope, { ratePerSecond: rate, dailyCap: 1_000_000 });

    const audience = {
      groupIds: [],
      serviceIds: [],
      tags: [],
      types: [],
      statuses: ['active' as const],
      portalAccess: 'any' as const,
      overdueOnly: false,
    };
    let t0 = performance.now();
    const summary = await summarize(db, scope, audience, 'client');
    const summaryMs = performance.now() - t0;
    if (args.chunk) queueing.chunk = Number(args.chunk);
    t0 = performance.now();
    const created = await createBroadcast(db, scope, {
      subject: '{{client_name}}: documents for {{fiscal_year}}',
      bodyHtml:
        '<p>Dear {{contact_name|client}},</p><p>Please upload:</p>{{pending_items|<p>nothing</p>}}<p>{{firm_name}}</p>',
      audience,
      mode: 'client',
      templateId: null,
      sendAt: null,
    });
    const createMs = performance.now() - t0;
    // The rest of the audience, as the worker runs it: chunk after chunk, each its own transaction.
    // PGlite runs on this thread, so the event loop's longest delay is the longest chunk's hold.
    const config_ = { db, config, mailer: createMailer(config.mail), log: console };
    const queueLoop = monitorEventLoopDelay({ resolution: 5 });
    queueLoop.enable();
    const [job] = rowsOf<{ id: string; payload: unknown; org_id: string }>(
      await db.execute(sql`select id, payload, org_id from jobs where kind = ${BROADCAST_QUEUE}`),
    );
    if (job) {
      await queueBroadcast(
        {
          id: job.id,
          kind: BROADCAST_QUEUE,
          payload: job.payload,
          orgId: job.org_id,
          attempts: 0,
          maxAttempts: 1,
          runAt: new Date(),
        },
        config_,
      );
    }
    queueLoop.disable();
    const queueMs = performance.now() - t0;
    const [queued] = rowsOf<{ n: number }>(
      await db.execute(sql`select recipient_count as n from broadcasts where id = ${created.id}`),
    );
    console.log(
      `engine ${args.engine}: audience preview of ${summary.recipients} recipients in ${summaryMs.toFixed(0)} ms`,
    );
    console.log(
      `queued ${queued?.n} deliveries in ${(queueMs / 1000).toFixed(2)} s (target ≤ 30 s), ${queueing.chunk} clients a chunk; the create (first chunk) took ${createMs.toFixed(0)} ms; event loop delay while queueing: p99 ${(queueLoop.percentile(99) / 1e6).toFixed(0)} ms, max ${(queueLoop.max / 1e6).toFixed(0)} ms`,
    );

    registerBroadcastJobs();
    const worker = createWorker(
      {
        db,
        config,
        mailer: createMailer(config.mail),
        log: { info() {}, warn() {}, error: (o, m) => console.error(m, o) },
      },
      { pollMs: 100, kinds: [BROADCAST_PUMP] },
    );
    global.gc?.();
    const before = process.memoryUsage();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 250);
    const seconds = Number(args.seconds);
    t0 = performance.now();
    worker.start();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await worker.stop();
    const elapsed = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    loop.disable();
    global.gc?.();
    const after = process.memoryUsage();
    const [counts] = rowsOf<{ sent: number; queued: number }>(
      await db.execute(sql`select count(*) filter (where state = 'sent')::int as sent,
        count(*) filter (where state = 'queued')::int as queued from broadcast_deliveries where broadcast_id = ${created.id}`),
    );
    console.log(
      `sent ${counts?.sent} in ${elapsed.toFixed(1)} s = ${((counts?.sent ?? 0) / elapsed).toFixed(1)}/s at a set rate of ${rate}/s; SMTP server got ${smtp.received()}; ${counts?.queued} still queued`,
    );
    console.log(
      `memory: rss ${mb(before.rss)} → ${mb(after.rss)} (peak ${mb(peakRss)}, growth ${mb(peakRss - before.rss)}); heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}`,
    );
    console.log(
      `event loop delay while sending: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`,
    );
  } finally {
    await database.close();
    await smtp.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
