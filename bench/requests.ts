// npx tsx bench/requests.ts [--engine postgres|pglite] [--clients 20000] [--per-client 5] [--calls 30] [--no-chase] [--keep]
// Issue 36's speed target on the large firm: the staff list of outstanding requests (the first
// page of /requests?status=open) ≤ 20 ms p50 alone, a lone tRPC call with a real token. Also
// measured, without a target: the "Requests outstanding" report and the chase job's pass over the
// firm. The firm gets `per-client` requests a client over the last year (most complete, a sixth
// open), ten items each, some answered. PostgreSQL gets a fresh database (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres) dropped afterwards.

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { addDays, todayIn } from '../src/domain/days';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { sendRequestReminders } from '../src/server/features/requests';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { generateClientBook } from './generate-clients';
import { rowsOf } from './generate-people';
import { arr, rng } from './generate-util';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    clients: { type: 'string', default: '20000' },
    'per-client': { type: 'string', default: '5' },
    calls: { type: 'string', default: '30' },
    // The chase pass's first run sends every generated request's due step: minutes on the large firm.
    'no-chase': { type: 'boolean', default: false },
    // Leaves the PostgreSQL database for EXPLAIN by hand (its name is printed).
    keep: { type: 'boolean', default: false },
  },
});
const CALLS = Number(args.calls);
const CLIENTS = Number(args.clients);
const PER_CLIENT = Number(args['per-client']);
// Enough calls for the JIT to settle: with 5 the first case measured its warm-up (29 ms against 21).
const WARMUP = 30;
const ITEMS = 10;
const BATCH = 5_000;

async function openDatabase(): Promise<{ database: TDatabase; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), drop: async () => {} };
  if (args.engine !== 'postgres') throw new Error(`unknown engine ${args.engine}`);
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_requests_${randomBytes(4).toString('hex')}`;
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

/** A year of requests: most complete, some cancelled, a sixth still open (a few overdue). */
async function generateRequests(db: TDatabase['db'], orgId: string, senders: string[], today: string) {
  const random = rng(36);
  const clientIds = rowsOf<{ id: string }>(
    await db.execute(sql`select id from clients where org_id = ${orgId}::uuid order by id`),
  ).map((r) => r.id);
  const all: { id: string; client: string; status: string; due: string; sent: string; by: string }[] = [];
  for (const client of clientIds) {
    for (let k = 0; k < PER_CLIENT; k++) {
      const age = Math.floor(random() * 365);
      const r = random();
      // The recent ones are the open ones: what a firm still waits for was mostly sent lately.
      const open = age < 90 && r < 0.6;
      const status = open
        ? (['sent', 'in_progress', 'returned', 'submitted'][Math.floor(random() * 4)] as string)
        : r < 0.95
          ? 'complete'
          : 'cancelled';
      const sent = addDays(today, -age);
      all.push({
        id: uuidv7(),
        client,
        status,
        sent,
        due: addDays(sent, 7 + Math.floor(random() * 30)),
        by: senders[Math.floor(random() * senders.length)] as string,
      });
    }
  }
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    await db.execute(sql`
      insert into requests (id, org_id, client_id, title, status, due_date, created_by, sent_at, created_at,
        submitted_at, completed_at)
      select id, ${orgId}::uuid, client_id, 'Documents for the return', status, due::date, by,
        (sent::date + time '10:00') at time zone 'Asia/Kolkata', (sent::date + time '10:00') at time zone 'Asia/Kolkata',
        case when status in ('submitted', 'complete') then (sent::date + 5 + time '10:00') at time zone 'Asia/Kolkata' end,
        case when status = 'complete' then (sent::date + 9 + time '10:00') at time zone 'Asia/Kolkata' end
      from unnest(${arr(batch.map((r) => r.id))}::uuid[], ${arr(batch.map((r) => r.client))}::uuid[],
        ${arr(batch.map((r) => r.status))}::text[], ${arr(batch.map((r) => r.due))}::text[],
        ${arr(batch.map((r) => r.by))}::uuid[], ${arr(batch.map((r) => r.sent))}::text[])
        as t(id, client_id, status, due, by, sent)`);
    // Ten items each; the finished ones answered, the open ones about half.
    await db.execute(sql`
      insert into request_items (id, org_id, request_id, position, key, kind, label, value, answered_at)
      select gen_random_uuid(), ${orgId}::uuid, r.id, g.n, 'q' || g.n, 'short_text', 'Question ' || g.n,
        case when r.status in ('complete', 'submitted') or g.n < 5 then to_jsonb('answer'::text) end,
        case when r.status in ('complete', 'submitted') or g.n < 5 then r.sent_at + interval '1 day' end
      from requests r cross join generate_series(0, ${ITEMS - 1}) as g(n)
      where r.org_id = ${orgId}::uuid and r.id = any(${arr(batch.map((r) => r.id))}::uuid[])`);
  }
  return {
    requests: all.length,
    open: all.filter((r) => ['sent', 'in_progress', 'returned', 'submitted'].includes(r.status)).length,
  };
}

async function main() {
  const { database, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const today = todayIn('Asia/Kolkata');
    const firm = await t.seedFirm('Requests bench');
    await t.db.execute(sql`update orgs set time_zone = 'Asia/Kolkata' where id = ${firm.org.id}::uuid`);
    const members = rowsOf<{ id: string }>(
      await t.db.execute(sql`select id from members where org_id = ${firm.org.id}::uuid`),
    ).map((r) => r.id);
    let start = performance.now();
    await generateClientBook(
      t.db,
      firm.org.id,
      members,
      { clients: CLIENTS, groups: 200, services: 40, engagements: 0 },
      1,
    );
    const made = await generateRequests(t.db, firm.org.id, members, today);
    await t.db.execute(sql`vacuum analyze`);
    console.log(
      `${args.engine}: ${made.requests.toLocaleString('en')} requests (${made.open.toLocaleString('en')} open), ${(made.requests * ITEMS).toLocaleString('en')} items for ${CLIENTS.toLocaleString('en')}+ clients in ${((performance.now() - start) / 1000).toFixed(0)} s`,
    );
    const api = t.client(firm.owner.token);
    const cases = [
      {
        name: 'requests.list (open, first page)',
        target: 20,
        call: () => api.requests.list.query({ status: 'open' }),
        check: (r: { total: number; rows: unknown[] }) => `${r.rows.length} of ${r.total}`,
      },
      {
        name: 'requests.list (open, by due date)',
        target: 20,
        call: () => api.requests.list.query({ status: 'open', sort: 'dueDate', direction: 'asc' }),
        check: (r: { total: number; rows: unknown[] }) => `${r.rows.length} of ${r.total}`,
      },
      {
        name: 'reports.requestsOutstanding (no target)',
        target: 0,
        call: () => api.reports.requestsOutstanding.query({}),
        check: (r: { total: number; totals: { open: number } }) =>
          `${r.totals.open} open, ${r.total} clients`,
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let shape = '';
      let cpu = process.cpuUsage();
      for (let i = 0; i < WARMUP + CALLS; i++) {
        if (i === WARMUP) cpu = process.cpuUsage();
        const begin = performance.now();
        // biome-ignore lint/suspicious/noExplicitAny: each case checks its own result's shape
        const result: any = await c.call();
        if (i >= WARMUP) times.push(performance.now() - begin);
        if (i === 0) shape = c.check(result);
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `${args.engine} ${c.name} (${shape}): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms${c.target ? `, target ${c.target} ms` : ''}; CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(1)} ms a call; load average ${load()}`,
      );
    }
    // The chase job's hourly pass over the firm: the first queues the day's steps, the second finds
    // them sent (the common case).
    for (const pass of args['no-chase'] ? [] : ['first', 'second']) {
      start = performance.now();
      const r = await sendRequestReminders(t.db, t.config.publicUrl);
      console.log(
        `${args.engine} chase pass (${pass}): ${r.queued} reminders queued in ${(performance.now() - start).toFixed(0)} ms`,
      );
    }
  } finally {
    await t.close();
    await drop();
  }
}

await main();
process.exit(0);
