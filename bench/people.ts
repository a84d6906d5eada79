// npx tsx bench/people.ts [--engine postgres|pglite] [--members 500] [--years 2] [--entries 5000000]
//   [--calls 50] [--skip-explain] [--keep | --database bench_people_…]
// Issue 19's speed targets for a large firm (500 members, two years of entries, about 5 million
// rows, ten leave types), each a lone request through tRPC with a real token:
// - timesheets.myWeek ≤ 20 ms, timesheets.teamWeek for 500 members ≤ 100 ms on PostgreSQL;
// - leave.setup.balances (the members tab: every member × every type for a year) ≤ 100 ms.
// PostgreSQL gets a fresh database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// that is dropped afterwards (--keep leaves it, and --database NAME measures a kept one again
// without generating); PGlite runs in memory in this process. The server's pool is production's
// (10 connections), not the tests' 5.

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { addDays, todayIn, weekStartOf } from '../src/domain/days';
import { openPglite, openPostgres, type TDatabase } from '../src/server/db/client';
import { members as membersTable, orgs } from '../src/server/db/schema';
import { createTestApp } from '../src/server/test/app';
import { createDatabase, dropDatabase } from '../src/server/test/templates';
import { generatePeople, rowsOf } from './generate-people';
import { load, quantile } from './stats';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    members: { type: 'string', default: '500' },
    years: { type: 'string', default: '2' },
    entries: { type: 'string' },
    calls: { type: 'string', default: '50' },
    'skip-explain': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const members = Number(args.members);
const years = Number(args.years);
// About 5 million for 500 members and two years; scaled for other sizes.
const entries = args.entries ? Number(args.entries) : Math.round((5_000_000 * members * years) / 1000);
const CALLS = Number(args.calls);
const WARMUP = 10;

const FIRM = 'People bench';

async function openDatabase(): Promise<{ database: TDatabase; fresh: boolean; drop: () => Promise<void> }> {
  if (args.engine === 'pglite') return { database: await openPglite(), fresh: true, drop: async () => {} };
  if (args.engine !== 'postgres') throw new Error(`unknown engine ${args.engine}`);
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = args.database ?? `bench_people_${randomBytes(4).toString('hex')}`;
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

async function main() {
  const { database, fresh, drop } = await openDatabase();
  const t = await createTestApp({}, { database });
  try {
    const today = todayIn('Asia/Kolkata');
    let owner: { id: string; token: string; orgId: string };
    if (fresh) {
      const firm = await t.seedFirm(FIRM);
      const start = performance.now();
      const made = await generatePeople(t.db, firm.org.id, { members, years, entries, today });
      console.log(
        `${args.engine}: ${made.members} members, ${made.entries.toLocaleString('en')} entries (${made.perDay} a working day) from ${made.from}, ${made.weeks} weeks, ${made.requests} leave requests, ${made.ledger} ledger rows in ${((performance.now() - start) / 1000).toFixed(0)} s`,
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
    const weekStart = addDays(weekStartOf(today), -7);
    const year = Number(today.slice(0, 4));

    const cases = [
      {
        name: 'timesheets.myWeek',
        target: 20,
        call: () => api.timesheets.myWeek.query({ weekStart }),
        check: (r: { entries: unknown[] }) => `${r.entries.length} entries`,
      },
      {
        name: 'timesheets.teamWeek',
        target: 100,
        call: () => api.timesheets.teamWeek.query({ weekStart }),
        check: (r: { members: unknown[] }) => `${r.members.length} members`,
      },
      {
        name: 'leave.setup.balances',
        target: 100,
        call: () => api.leave.setup.balances.query({ year }),
        check: (r: unknown[]) => `${r.length} balances`,
      },
    ] as const;
    for (const c of cases) {
      const times: number[] = [];
      let start = 0;
      let shape = '';
      let cpu = process.cpuUsage();
      for (let i = 0; i < WARMUP + CALLS; i++) {
        if (i === WARMUP) cpu = process.cpuUsage();
        start = performance.now();
        // biome-ignore lint/suspicious/noExplicitAny: each case checks its own result's shape
        const result: any = await c.call();
        if (i >= WARMUP) times.push(performance.now() - start);
        shape = c.check(result);
      }
      // This process's CPU per call (server and client; with PGlite the database too): steadier
      // than the latency on a machine shared with other work.
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / CALLS;
      console.log(
        `${args.engine} ${c.name} (${shape}): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, target ${c.target} ms; CPU ${cpuMs.toFixed(1)} ms a call; load average ${load()}`,
      );
    }
    if (!args['skip-explain']) await explain(t.db, owner.orgId, owner.id, weekStart, year);
  } finally {
    await t.close();
    await drop();
  }
}

/** The plans of the statements the three procedures spend their time in. */
async function explain(
  db: Awaited<ReturnType<typeof createTestApp>>['db'],
  orgId: string,
  memberId: string,
  weekStart: string,
  year: number,
) {
  const last = addDays(weekStart, 6);
  const statements = {
    'myWeek: entries of the week with names': sql`
      select e.id, e.date, e.minutes, c.name, p.name, t.title, s.name
      from timesheet_entries e
      left join clients c on c.org_id = e.org_id and c.id = e.client_id
      left join projects p on p.org_id = e.org_id and p.id = e.project_id
      left join tasks t on t.org_id = e.org_id and t.id = e.task_id
      left join services s on s.org_id = e.org_id and s.id = e.service_id
      where e.org_id = ${orgId} and e.member_id = ${memberId} and e.date >= ${weekStart} and e.date <= ${last}
      order by e.date, e.id`,
    'teamWeek: minutes by day and member': sql`
      select member_id, date, sum(minutes)::int from timesheet_entries
      where org_id = ${orgId} and date >= ${weekStart} and date <= ${last}
      group by date, member_id`,
    'teamWeek: approved leave touching the week': sql`
      select id, member_id, start_date, end_date, part, minutes from leave_requests
      where org_id = ${orgId} and status in ('approved') and start_date <= ${last} and end_date >= ${weekStart}`,
    'balances: the ledger and the pending requests by member and type': sql`
      with ledger as (
        select member_id, leave_type_id, sum(amount)::int as balance,
               coalesce(-sum(amount) filter (where kind in ('taken', 'reversal')), 0)::int as taken
        from leave_ledger
        where org_id = ${orgId} and effective_on >= ${`${year}-01-01`} and effective_on <= ${`${year}-12-31`}
        group by 1, 2
      ), pending as (
        select member_id, leave_type_id, sum(amount)::int as pending from leave_requests
        where org_id = ${orgId} and status = 'pending' and start_date >= ${`${year}-01-01`} and start_date <= ${`${year}-12-31`}
        group by 1, 2
      )
      select member_id, leave_type_id, coalesce(balance, 0), coalesce(taken, 0), coalesce(pending, 0)
      from ledger full join pending using (member_id, leave_type_id)`,
  };
  for (const [name, statement] of Object.entries(statements)) {
    const plan = rowsOf<Record<string, string>>(
      await db.execute(sql`explain (analyze, buffers) ${statement}`),
    ).map((r) => Object.values(r)[0]);
    console.log(`\n— ${name}\n${plan.join('\n')}`);
  }
}

await main();
process.exit(0);
