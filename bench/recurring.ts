// npx tsx bench/recurring.ts [--engagements 60000] [--engine postgres|pglite] [--explain]
//   [--concurrency 2] [--batch 5000] [--drop-index tasks_tags_idx --drop-index …]
// Issue 6's target for recurring work: generating a month of projects for 60,000 engagements (each
// service's template has five tasks, each engagement two assignees) in under 60 s, and a re-run
// that creates nothing. PostgreSQL gets a fresh database (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres) that is dropped afterwards; PGlite runs in memory.
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import type { TDb } from '../src/server/db/client';
import { generateRecurringProjects } from '../src/server/features/projects';
import { createTestDatabase } from '../src/server/test/database';

const { values: args } = parseArgs({
  options: {
    engagements: { type: 'string', default: '60000' },
    engine: { type: 'string', default: 'postgres' },
    // Prints EXPLAIN (ANALYZE, BUFFERS) of each generation statement of the first run: where the
    // time goes, foreign-key triggers included.
    explain: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    // Measures an index's share of the cost: drops it in the bench database before the run.
    'drop-index': { type: 'string', multiple: true },
    batch: { type: 'string' },
  },
});
const SERVICES = 3;

async function main() {
  if (args.engine === 'postgres') {
    process.env.DATABASE_URL ??= process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  } else delete process.env.DATABASE_URL;
  const database = await createTestDatabase();
  const db = database.db;
  try {
    const clients = Math.ceil(Number(args.engagements) / SERVICES);
    let start = performance.now();
    await db.execute(sql`
      with o as (insert into orgs (id, name, time_zone) values (gen_random_uuid(), 'Big', 'UTC') returning id),
      r as (insert into roles (id, org_id, name) select gen_random_uuid(), o.id, 'Staff' from o returning id, org_id),
      m as (insert into members (id, org_id, email, first_name, role_id)
            select gen_random_uuid(), r.org_id, 'm' || g || '@bench.test', 'Member ' || g, r.id
            from r, generate_series(1, 50) g returning 1),
      t as (insert into project_templates (id, org_id, name)
            select gen_random_uuid(), o.id, 'T' || g from o, generate_series(1, ${SERVICES}::int) g
            returning id, org_id, name),
      tt as (insert into template_tasks (id, org_id, template_id, position, title, due_offset_days, checklist)
             select gen_random_uuid(), t.org_id, t.id, g, 'Task ' || g, g, '["a","b"]'::jsonb
             from t, generate_series(1, 5) g returning 1),
      s as (insert into services (id, org_id, name, code, frequency, project_template_id, due_date_rule)
            select gen_random_uuid(), t.org_id, 'S' || t.name, 'C' || t.name, 'monthly', t.id,
                   '{"dayOfMonth":20,"monthsAfterPeriod":1}'::jsonb
            from t returning 1)
      select (select count(*) from m) + (select count(*) from tt) + (select count(*) from s)`);
    await db.execute(sql`
      insert into clients (id, org_id, code, name)
      select gen_random_uuid(), o.id, 'C' || g, 'Client ' || g from orgs o, generate_series(1, ${clients}::int) g`);
    await db.execute(sql`
      insert into client_services (id, org_id, client_id, service_id, start_date)
      select gen_random_uuid(), c.org_id, c.id, s.id, '2025-01-01' from clients c join services s on s.org_id = c.org_id`);
    await db.execute(sql`
      insert into client_service_assignees (org_id, client_service_id, member_id)
      select cs.org_id, cs.id, m.id from client_services cs
      cross join lateral (select id from members m where m.org_id = cs.org_id order by random() limit 2) m`);
    for (const name of args['drop-index'] ?? []) {
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not an index name: ${name}`);
      await db.execute(sql.raw(`drop index ${name}`));
      console.log(`dropped index ${name}`);
    }
    await db.execute(sql`analyze`);
    const [engagements] = (
      (await db.execute(sql`select count(*)::int as n from client_services`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    console.log(`${args.engine}: ${engagements?.n} engagements set up in ${msSince(start)} ms`);

    // On 25 March the February period (due 20 March) is behind us: exactly March's projects remain.
    const now = new Date('2026-03-25T10:00:00Z');
    const tuning = {
      concurrency: args.concurrency ? Number(args.concurrency) : undefined,
      batchSize: args.batch ? Number(args.batch) : undefined,
    };
    start = performance.now();
    const first = await generateRecurringProjects(args.explain ? explaining(db) : db, {
      through: '2026-03-31',
      now,
      ...tuning,
    });
    const firstMs = msSince(start);
    start = performance.now();
    const again = await generateRecurringProjects(db, { through: '2026-03-31', now, ...tuning });
    const againMs = msSince(start);
    console.log(
      `first run: ${first.projects} projects, ${first.tasks} tasks in ${(firstMs / 1000).toFixed(1)} s (target < 60 s)`,
    );
    console.log(
      `re-run: ${again.projects} projects, ${again.tasks} tasks in ${(againMs / 1000).toFixed(1)} s`,
    );
    if (again.projects !== 0) throw new Error('the re-run created projects: generation is not idempotent');
  } finally {
    await database.close();
  }
}

/** The executor with every raw statement run under EXPLAIN ANALYZE, its plan printed. */
function explaining(db: TDb): TDb {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (query: SQL) => {
        const plan = (await target.execute(sql`explain (analyze, buffers) ${query}`)) as unknown as {
          rows: Record<string, string>[];
        };
        console.log(plan.rows.map((r) => Object.values(r)[0]).join('\n'));
        // The plan has no rows of the statement's own: the caller reads zeros.
        return { rows: [{ projects: 0, tasks: 0 }] };
      };
    },
  });
}

const msSince = (start: number) => Math.round(performance.now() - start);

await main();
