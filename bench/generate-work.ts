import { eq, sql } from 'drizzle-orm';
import { todayIn } from '../src/domain/days';
import type { TDb } from '../src/server/db/client';
import { orgs } from '../src/server/db/schema';

/**
 * A year of a firm's work: projects for its clients and services, and tasks in them (plus some
 * standalone ones), due over a year centred on today, in every status, assigned mostly to each
 * client's team. Everything is generated inside the database (INSERT … SELECT over
 * generate_series, a chunk per statement), so 500,000 tasks take one round trip per chunk and the
 * same code serves the benchmark's large firm and the demo's small one. It reads the firm's members,
 * clients, services and client teams, so run it after those exist.
 */
export type TWorkBook = {
  projects: number;
  tasks: number;
  /** Share of the tasks that stand alone (a client's or internal), not in a project. */
  standaloneShare?: number;
  /** Load without the secondary indexes and build them after; default from 100,000 tasks. */
  deferIndexes?: boolean;
};

export type TWorkResult = { projects: number; tasks: number; assignees: number };

const CHUNK = 25_000;
/** From this many tasks the load runs without the secondary indexes and builds them once after. */
const BULK_FROM = 100_000;

// A deterministic spread of a row number into [0, 2^31): the same firm on every run, no random().
const h = (seq: ReturnType<typeof sql>, salt: number) =>
  sql`(hashint8((${seq})::bigint * 7919 + ${salt}) & 2147483647)`;

const PROJECT_TASKS = [
  'Collect documents from the client',
  'Reconcile bank statements',
  'Update the ledger',
  'Prepare working papers',
  'Prepare the return',
  'Review the return',
  'File the return',
  'Send the acknowledgement to the client',
  'Raise the invoice',
];
const STANDALONE_TASKS = [
  'Reply to the tax notice',
  'Follow up on the unpaid invoice',
  'Update KYC details',
  'Renew the digital signature',
  'Call the client about missing invoices',
  'Check the advance-tax estimate',
  'Team meeting notes',
  'Upload signed engagement letter',
];
const TAGS = ['gst', 'audit', 'followup', 'docs-pending', 'review', 'notice'];

const textArray = (values: string[]) => sql`${`{${values.map((v) => `"${v}"`).join(',')}}`}::text[]`;

export async function generateWork(
  db: TDb,
  orgId: string,
  book: TWorkBook,
  now = new Date(),
): Promise<TWorkResult> {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId));
  if (!org) throw new Error('no such firm');
  const today = todayIn(org.timeZone, now);
  const standalone = Math.round(book.tasks * (book.standaloneShare ?? 0.1));
  const inProjects = book.projects > 0 ? book.tasks - standalone : 0;

  for (let from = 1; from <= book.projects; from += CHUNK) {
    await insertProjects(db, orgId, today, from, Math.min(book.projects, from + CHUNK - 1));
  }
  await db.execute(sql`
    insert into project_members (org_id, project_id, member_id)
    select org_id, id, owner_id from projects where org_id = ${orgId}::uuid and owner_id is not null
    on conflict do nothing`);

  let assignees = 0;
  const restore =
    (book.deferIndexes ?? book.tasks >= BULK_FROM) ? await dropSecondaryIndexes(db) : async () => {};
  try {
    for (let from = 1; from <= inProjects; from += CHUNK) {
      assignees += await insertProjectTasks(db, orgId, today, from, Math.min(inProjects, from + CHUNK - 1));
    }
    const tasks = book.tasks - inProjects;
    for (let from = 1; from <= tasks; from += CHUNK) {
      assignees += await insertStandaloneTasks(db, orgId, today, from, Math.min(tasks, from + CHUNK - 1));
    }
  } finally {
    await restore();
  }
  return { projects: book.projects, tasks: book.tasks, assignees };
}

/**
 * The status of work due on `due`: most past work is done, a share is late (OVERDUE once shown),
 * near work is under way, far work scheduled.
 */
const statusFor = (due: ReturnType<typeof sql>, today: string, r: ReturnType<typeof sql>) => sql`
  case
    when ${due} < ${today}::date then case when ${r} % 100 < 86 then 'COMPLETED'
      when ${r} % 3 = 0 then 'SCHEDULED' when ${r} % 3 = 1 then 'IN_PROGRESS' else 'IN_REVIEW' end
    when ${due} < ${today}::date + 30 then case when ${r} % 100 < 12 then 'COMPLETED'
      when ${r} % 100 < 45 then 'IN_PROGRESS' when ${r} % 100 < 65 then 'IN_REVIEW' else 'SCHEDULED' end
    else case when ${r} % 100 < 3 then 'COMPLETED' when ${r} % 100 < 15 then 'IN_PROGRESS' else 'SCHEDULED' end
  end`;

/**
 * Projects of the firm's engagements (a client's service) when it has any, otherwise of its clients
 * with a service drawn from the catalogue. Each is one month's period, due some weeks after it.
 */
async function insertProjects(db: TDb, orgId: string, today: string, from: number, to: number) {
  const g = sql`g`;
  const [engaged] = rowsOf<{ any: boolean }>(
    await db.execute(sql`select exists (select 1 from client_services where org_id = ${orgId}::uuid) as any`),
  );
  const source = engaged?.any
    ? sql`select cs.client_id, cs.service_id, (row_number() over (order by cs.id)) - 1 as n
        from client_services cs where cs.org_id = ${orgId}::uuid`
    : sql`select c.id as client_id,
          (select s.id from services s where s.org_id = c.org_id order by hashtext(c.id::text || s.id::text) limit 1) as service_id,
          (row_number() over (order by c.id)) - 1 as n
        from clients c where c.org_id = ${orgId}::uuid and c.archived_at is null`;
  await db.execute(sql`
    with src as (${source}),
    mem as (select id, (row_number() over (order by id)) - 1 as n from members where org_id = ${orgId}::uuid and status = 'active'),
    counts as (select (select count(*) from src) as nc, (select count(*) from mem) as nm),
    rows as (
      select g, ${h(g, 1)} as r1, ${h(g, 3)} as r3, ${h(g, 4)} as r4,
        (${today}::date + (${h(g, 5)} % 365)::int - 182) as due
      from generate_series(${from}::int, ${to}::int) as g
    ),
    picked as (
      select rows.*, src.client_id, src.service_id,
        coalesce((select ct.member_id from client_team ct where ct.org_id = ${orgId}::uuid
          and ct.client_id = src.client_id limit 1), mem.id) as owner_id,
        coalesce((select s.name from services s where s.org_id = ${orgId}::uuid and s.id = src.service_id), 'Engagement')
          as service_name,
        date_trunc('month', rows.due - 20)::date as period_start
      from rows cross join counts
      join src on src.n = rows.r1 % counts.nc
      join mem on mem.n = rows.r4 % counts.nm
    )
    insert into projects (id, org_id, client_id, service_id, name, period_key, period_start, period_end,
      status, start_date, due_date, completed_date, owner_id)
    select gen_random_uuid(), ${orgId}::uuid, client_id, service_id,
      service_name || ' · ' || to_char(period_start, 'Mon YYYY'),
      to_char(period_start, 'YYYY-MM'), period_start, (period_start + interval '1 month' - interval '1 day')::date,
      status, period_start, due,
      case when status = 'COMPLETED' then least(now() - make_interval(hours => (1 + r3 % 96)::int), (due - (r3 % 5)::int) + time '12:00') end,
      owner_id
    from (select picked.*, ${statusFor(sql`due`, today, sql`r3`)} as status from picked) p`);
}

/** Tasks of the projects, a few per project, due in the days before the project's due date. */
async function insertProjectTasks(db: TDb, orgId: string, today: string, from: number, to: number) {
  const g = sql`g`;
  const result = await db.execute(sql`
    with pr as (
      select id, client_id, due_date, status, (row_number() over (order by id)) - 1 as n
      from projects where org_id = ${orgId}::uuid
    ),
    np as (select count(*) as n from pr),
    rows as (
      select g, ((g - 1) % np.n) as pn, ((g - 1) / np.n)::int as k, ${h(g, 11)} as r1, ${h(g, 12)} as r2,
        ${h(g, 13)} as r3
      from generate_series(${from}::int, ${to}::int) as g cross join np
    ),
    planned as (
      select rows.*, pr.id as project_id, pr.client_id, pr.status as project_status,
        (pr.due_date - (greatest(0, 8 - rows.k) * 2)) as due
      from rows join pr on pr.n = rows.pn
    ),
    ins as (
      insert into tasks (id, org_id, project_id, client_id, title, status, priority, due_date, completed_date,
        tags, for_client, position)
      select gen_random_uuid(), ${orgId}::uuid, project_id, client_id,
        (${textArray(PROJECT_TASKS)})[1 + (k % ${PROJECT_TASKS.length})],
        status,
        case when r2 % 100 < 20 then 'low' when r2 % 100 < 70 then 'medium' when r2 % 100 < 92 then 'high' else 'urgent' end,
        due,
        case when status = 'COMPLETED' then least(now() - make_interval(hours => (1 + r3 % 96)::int), (due - (r3 % 4)::int) + time '11:00') end,
        case when r3 % 100 < 30 then array[(${textArray(TAGS)})[1 + (r1 % ${TAGS.length})]] else '{}'::text[] end,
        k = 0 and r2 % 100 < 80,
        k
      from (select planned.*, case when project_status = 'COMPLETED' then 'COMPLETED'
              else ${statusFor(sql`due`, today, sql`r1`)} end as status from planned) t
      returning id, client_id, due_date
    )
    ${assigneesFrom(orgId)}`);
  return affected(result);
}

/** Tasks of no project: a client's (most) or the firm's own, due anywhere in the year. */
async function insertStandaloneTasks(db: TDb, orgId: string, today: string, from: number, to: number) {
  const g = sql`g`;
  const result = await db.execute(sql`
    with cl as (select id, (row_number() over (order by id)) - 1 as n from clients where org_id = ${orgId}::uuid),
    nc as (select count(*) as n from cl),
    rows as (
      select g, ${h(g, 21)} as r1, ${h(g, 22)} as r2, ${h(g, 23)} as r3,
        (${today}::date + (${h(g, 24)} % 365)::int - 182) as due
      from generate_series(${from}::int, ${to}::int) as g
    ),
    ins as (
      insert into tasks (id, org_id, client_id, title, status, priority, due_date, completed_date, tags, for_client, position)
      select gen_random_uuid(), ${orgId}::uuid, case when r1 % 10 < 9 then cl.id end,
        (${textArray(STANDALONE_TASKS)})[1 + (r2 % ${STANDALONE_TASKS.length})],
        status,
        case when r2 % 100 < 25 then 'low' when r2 % 100 < 65 then 'medium' when r2 % 100 < 90 then 'high' else 'urgent' end,
        due,
        case when status = 'COMPLETED' then least(now() - make_interval(hours => (1 + r3 % 96)::int), (due - (r3 % 4)::int) + time '15:00') end,
        case when r3 % 100 < 40 then array[(${textArray(TAGS)})[1 + (r3 % ${TAGS.length})]] else '{}'::text[] end,
        r1 % 10 < 9 and r3 % 100 < 8,
        0
      from (select rows.*, ${statusFor(sql`due`, today, sql`r3`)} as status from rows) x
      cross join nc
      left join cl on cl.n = x.r1 % nc.n
      returning id, client_id, due_date
    )
    ${assigneesFrom(orgId)}`);
  return affected(result);
}

/**
 * One assignee per task, usually the client's team member (so "assigned clients only" members have
 * work), otherwise anyone; a second one on about one task in seven.
 */
function assigneesFrom(orgId: string) {
  return sql`,
    mem as (select id, (row_number() over (order by id)) - 1 as n from members where org_id = ${orgId}::uuid and status = 'active'),
    nm as (select count(*) as n from mem),
    firsts as (
      select ins.id, ins.due_date, (hashtext(ins.id::text) & 2147483647) as r,
        (select ct.member_id from client_team ct where ct.org_id = ${orgId}::uuid and ct.client_id = ins.client_id limit 1) as team_member
      from ins
    )
    insert into task_assignees (org_id, task_id, member_id, due_date)
    select ${orgId}::uuid, f.id, case when f.team_member is not null and f.r % 10 < 8 then f.team_member else m.id end, f.due_date
    from firsts f cross join nm join mem m on m.n = f.r % nm.n
    union all
    select ${orgId}::uuid, f.id, m.id, f.due_date
    from firsts f cross join nm join mem m on m.n = (f.r / 7 + 1) % nm.n
    where f.r % 7 = 0 and nm.n > 1 and m.id is distinct from f.team_member
    on conflict do nothing`;
}

/**
 * A bulk load's usual trick: building an index once over half a million rows is several times
 * cheaper than updating it row by row (two of them are GIN). The indexes are recreated from their
 * own definitions, so they are exactly the migrations'. Constraint indexes (keys) stay.
 */
async function dropSecondaryIndexes(db: TDb) {
  const result = await db.execute(sql`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename in ('tasks', 'task_assignees')
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`);
  const indexes = rowsOf<{ indexname: string; indexdef: string }>(result);
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  return async () => {
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
  };
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
