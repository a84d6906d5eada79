// npx tsx bench/messages.ts [--engine postgres|pglite] [--clients 20000] [--per-client 3] [--messages 12] [--calls 30] [--keep] [--reuse <database>]
// Issue 38's speed target on the large firm: the firm's inbox (first page of /messages, All and
// Mine) and a thread of 500 messages (its newest page) ≤ 20 ms p50 alone, lone tRPC calls with a
// real token. The firm gets `per-client` threads a client over the last year with `messages`
// messages each (a fifth of them internal notes), the owner on a tenth of them, plus one thread of
// 500. PostgreSQL gets a fresh database (BENCH_PG_URL) dropped afterwards; --keep leaves it (its name
// printed) for EXPLAIN in psql, and --reuse <name> times the calls again on a kept one (migrated to
// the code's schema first, nothing generated).

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
    'per-client': { type: 'string', default: '3' },
    messages: { type: 'string', default: '12' },
    calls: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
  },
});
const CALLS = Number(args.calls);
const CLIENTS = Number(args.clients);
const PER_CLIENT = Number(args['per-client']);
const MESSAGES = Number(args.messages);
const WARMUP = 5;

async function openDatabase(): Promise<{ database: TDatabase; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), drop: async () => {} };
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = args.reuse ?? `bench_messages_${randomBytes(4).toString('hex')}`;
  if (!args.reuse) await createDatabase(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    database: await openPostgres(target.toString()),
    drop: async () => {
      if (args.keep || args.reuse) console.log(`kept database ${name}`);
      else await dropDatabase(url, name);
    },
  };
}

/** Threads over the last year, their messages and people, in set-based statements. */
async function generateMessages(db: TDatabase['db'], orgId: string, ownerId: string, staffId: string) {
  await db.execute(sql`
    insert into message_threads (id, org_id, client_id, subject, status, assignee_id, last_seq, last_public_seq,
      last_message_at, last_public_at, last_preview, last_public_preview, created_at)
    select gen_random_uuid(), c.org_id, c.id, 'Question ' || g.n || ' about the return',
      case when random() < 0.7 then 'closed' else 'open' end,
      case when random() < 0.5 then ${staffId}::uuid end,
      ${MESSAGES}, ${MESSAGES}, now() - (random() * interval '365 days'), now() - (random() * interval '365 days'),
      'Thanks, received.', 'Thanks, received.', now() - interval '1 year'
    from clients c cross join generate_series(1, ${PER_CLIENT}) as g(n)
    where c.org_id = ${orgId}::uuid`);
  await db.execute(sql`
    insert into messages (id, org_id, thread_id, seq, author_member_id, body, internal, created_at)
    select gen_random_uuid(), t.org_id, t.id, g.n, ${ownerId}::uuid,
      'Message ' || g.n || ': please find the details of the return and the documents we need.',
      g.n % 5 = 0, t.created_at + g.n * interval '1 hour'
    from message_threads t cross join generate_series(1, ${MESSAGES}) as g(n)
    where t.org_id = ${orgId}::uuid`);
  await db.execute(sql`
    insert into message_thread_members (org_id, thread_id, member_id, participant, read_seq)
    select org_id, id, ${ownerId}::uuid, true, case when random() < 0.8 then last_seq else 0 end
    from message_threads where org_id = ${orgId}::uuid and random() < 0.1`);
  // One long conversation: 500 messages.
  const [long] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into message_threads (id, org_id, client_id, subject, last_seq, last_public_seq, last_preview)
      select gen_random_uuid(), org_id, id, 'The long one', 500, 500, 'Last' from clients
      where org_id = ${orgId}::uuid order by id limit 1 returning id`),
  );
  await db.execute(sql`
    insert into messages (id, org_id, thread_id, seq, author_member_id, body, internal)
    select gen_random_uuid(), ${orgId}::uuid, ${long?.id}::uuid, g.n, ${ownerId}::uuid, 'Line ' || g.n, g.n % 7 = 0
    from generate_series(1, 500) as g(n)`);
  const [n] = rowsOf<{ threads: number; messages: number }>(
    await db.execute(sql`select (select count(*)::int from message_threads where org_id = ${orgId}::uuid) as threads,
      (select count(*)::int from messages where org_id = ${orgId}::uuid) as messages`),
  );
  return { longId: long?.id ?? '', threads: n?.threads ?? 0, messages: n?.messages ?? 0 };
}

type TApp = Awaited<ReturnType<typeof createTestApp>>;

async function generateFirm(t: TApp) {
  const firm = await t.seedFirm('Messages bench');
  const members = rowsOf<{ id: string }>(
    await t.db.execute(sql`select id from members where org_id = ${firm.org.id}::uuid`),
  ).map((r) => r.id);
  const start = performance.now();
  await generateClientBook(
    t.db,
    firm.org.id,
    members,
    { clients: CLIENTS, groups: 200, services: 40, engagements: 0 },
    1,
  );
  const made = await generateMessages(t.db, firm.org.id, firm.owner.id, firm.staff.id);
  await t.db.execute(sql`vacuum analyze`);
  console.log(
    `${args.engine}: ${made.threads.toLocaleString('en')} threads, ${made.messages.toLocaleString('en')} messages for ${CLIENTS.toLocaleString('en')}+ clients in ${((performance.now() - start) / 1000).toFixed(0)} s; org ${firm.org.id}, owner ${firm.owner.id}, thread of 500 ${made.longId}`,
  );
  return { token: firm.owner.token, longId: made.longId };
}

/** The kept database's bench firm: its owner signed in anew, its thread of 500. */
async function reuseFirm(t: TApp) {
  const [row] = rowsOf<{ sub: string; long_id: string }>(
    await t.db.execute(sql`select m.sub, (select id from message_threads t where t.org_id = o.id
        and t.subject = 'The long one' limit 1) as long_id
      from orgs o join members m on m.org_id = o.id and m.is_owner
      where o.name = 'Messages bench' order by m.created_at limit 1`),
  );
  if (!row) throw new Error('no bench firm in that database');
  await t.db.execute(sql`analyze`);
  return { token: await t.tokenFor(row.sub), longId: row.long_id };
}

async function main() {
  const { database, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const { token, longId } = args.reuse ? await reuseFirm(t) : await generateFirm(t);
    const made = { longId };
    const api = t.client(token);
    const cases = [
      { name: 'messages.list (All, open, first page)', call: () => api.messages.list.query({ view: 'all' }) },
      { name: 'messages.list (Mine)', call: () => api.messages.list.query({ view: 'mine' }) },
      { name: 'messages.list (Unassigned)', call: () => api.messages.list.query({ view: 'unassigned' }) },
      {
        name: 'messages.messages (thread of 500, newest page)',
        call: () => api.messages.messages.query({ threadId: made.longId }),
      },
      { name: 'messages.get (thread of 500)', call: () => api.messages.get.query({ threadId: made.longId }) },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let cpu = process.cpuUsage();
      for (let i = 0; i < WARMUP + CALLS; i++) {
        if (i === WARMUP) cpu = process.cpuUsage();
        const begin = performance.now();
        await c.call();
        if (i >= WARMUP) times.push(performance.now() - begin);
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `${args.engine} ${c.name}: p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target 20 ms; CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(1)} ms a call; load average ${load()}`,
      );
    }
  } finally {
    await t.close();
    await drop();
  }
}

await main();
process.exit(0);
