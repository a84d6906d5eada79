import type pg from 'pg';
import { addDays, weekStartOf } from '../src/domain/days';
import { ALL_PERMISSIONS } from '../src/domain/permissions';

/**
 * 1,000 firms on one PostgreSQL database (issue 42, "Scale past one firm"), generated inside the
 * database with set-based SQL (INSERT … SELECT over generate_series), never row by row.
 *
 * Sizes follow a long tail: firm f has 40 + 52,000 / f^0.75 clients (firm 1: 52,040, firm 10: 9,287,
 * firm 100: 1,684, firm 1,000: 332; about a million in all), a member per 80 clients (plus two), ten
 * tasks and twenty time entries a client. Every id is a uuid spelled from (kind, firm, row number)
 * (`sid` below), so a row names its client, project, task or member by arithmetic instead of a join:
 * that is what lets 22 million time entries load in minutes on two cores.
 *
 * Rows of different firms are interleaved on disk as a shared server's would be: the big tables are
 * loaded in slices of time (a week of time entries, a twentieth of the tasks) across all firms at
 * once, each slice in a hashed order, so a small firm's rows are scattered among the large ones'.
 *
 * The load runs with `session_replication_role = replica` (no triggers, so no per-row foreign key
 * checks and no per-row copy triggers; the generator writes the copied columns itself), and without
 * the secondary indexes of the big tables (rebuilt from their own definitions after). Then every
 * foreign key of the loaded tables is checked set-based (one anti-join each, `checkKeys`), and
 * VACUUM ANALYZE runs, as autovacuum would have done on a real server.
 */

export const FIRMS = Number(process.env.BENCH_SCALE_FIRMS ?? 1000);
/** Only to try the generator quickly: every firm this many times smaller. */
const SHRINK = Number(process.env.BENCH_SCALE_SHRINK ?? 1);
export const FIRM_PREFIX = 'Scale firm ';

/** Firm f's size; the same formula is the SQL in `sizes`. */
export const clientsOf = (f: number) => 40 + Math.floor(52_000 / f ** 0.75);

type TLog = (line: string) => void;

/** uuid of row n of a kind in firm f: kkkkffff-0000-7000-8000-nnnnnnnnnnnn (version 7, variant 8). */
const SID = `create or replace function pg_temp.sid(k int, f int, n bigint) returns uuid language sql immutable as $$
  select (lpad(to_hex(k), 4, '0') || lpad(to_hex(f), 4, '0') || '-0000-7000-8000-' || lpad(to_hex(n), 12, '0'))::uuid $$`;
/** A deterministic spread of (salt, a, b) into [0, 2^31). */
const H = `create or replace function pg_temp.h(salt int, a bigint, b bigint) returns bigint language sql immutable as $$
  select hashint8(a * 1000003 + b * 7919 + salt) & 2147483647 $$`;

// Kinds of ids.
const K = {
  org: 0,
  role: 1,
  member: 2,
  group: 3,
  service: 4,
  client: 5,
  engagement: 6,
  project: 7,
  task: 8,
  entry: 9,
  invoice: 10,
  line: 11,
  log: 12,
} as const;

const BIG_TABLES = [
  'clients',
  'client_services',
  'client_team',
  'projects',
  'project_members',
  'tasks',
  'task_assignees',
  'timesheet_entries',
  'timesheet_weeks',
  'invoices',
  'invoice_lines',
  'system_log',
];

const SERVICE_NAMES = [
  'Income tax return',
  'GST return',
  'TDS return',
  'Bookkeeping',
  'Statutory audit',
  'Tax audit',
  'Payroll',
  'ROC filing',
  'Advance tax',
  'Company secretarial',
];
const TASK_TITLES = [
  'Collect documents from the client',
  'Reconcile bank statements',
  'Prepare the return',
  'Review the return',
  'Reply to the tax notice',
  'Follow up on the unpaid invoice',
];
const FIRST = [
  'Asha',
  'Ravi',
  'Meera',
  'Arjun',
  'Kavya',
  'Vikram',
  'Priya',
  'Rahul',
  'Neha',
  'Sanjay',
  'Anita',
  'Dev',
];
const LAST = [
  'Sharma',
  'Iyer',
  'Patel',
  'Reddy',
  'Gupta',
  'Nair',
  'Khan',
  'Das',
  'Mehta',
  'Rao',
  'Joshi',
  'Bose',
];
const TYPES = [
  'individual',
  'individual',
  'individual',
  'proprietor',
  'partnership',
  'llp',
  'company',
  'company',
  'trust',
  'huf',
];

const textArray = (values: readonly string[]) =>
  `'{${values.map((v) => `"${v.replace(/'/g, "''")}"`).join(',')}}'::text[]`;

/**
 * The load's phases, in order. `setup` makes the firms and their clients, engagements and projects;
 * `tasks`, `time`, `billing` and `log` only compute their ids (no reads), so they may also run side
 * by side on separate connections after `setup` (a loaded machine gives each backend its share);
 * `indexes` builds the secondary indexes `setup` dropped.
 */
export const PHASES = ['setup', 'tasks', 'time', 'billing', 'log', 'indexes'] as const;
export type TPhase = (typeof PHASES)[number];

/** "a-b" (0-based, inclusive) of n slices, to split a phase over connections; all of them by default. */
function range(text: string | undefined, n: number): [number, number] {
  if (!text) return [0, n - 1];
  const [a, b] = text.split('-').map(Number);
  return [a ?? 0, b ?? n - 1];
}

export async function generateScale(
  client: pg.Client,
  today: string,
  log: TLog,
  phases: readonly TPhase[] = PHASES,
): Promise<void> {
  const run = (phase: TPhase) => phases.includes(phase);
  const q = async (label: string, text: string, params: unknown[] = []) => {
    const start = performance.now();
    const result = await client.query(text, params);
    if (label)
      log(`${label}: ${result.rowCount ?? 0} rows in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return result;
  };
  await q('', SID);
  await q('', H);
  await q('', `set maintenance_work_mem = '512MB'`);
  await q('', `set work_mem = '64MB'`);
  await q('', `set synchronous_commit = off`);
  await q('', `set statement_timeout = 0`);
  await q('', `set jit = off`);

  const weekStart = weekStartOf(today);
  const firstWeek = addDays(weekStart, -51 * 7);
  await q('', 'set session_replication_role = replica');
  if (run('setup')) await setup();
  async function setup() {
    // The firms' sizes, kept in the bench database so a later run measures the same firms.
    await q('', `drop table if exists bench_scale_firms`);
    await q(
      'firm sizes',
      `create table bench_scale_firms as
     select f, c, 2 + ceil(c / 80.0)::int as m, least(40, 8 + c / 500)::int as s, 1 + c / 150 as g
     from (select f, 40 + floor(52000 / f ^ 0.75 / ${SHRINK})::int as c from generate_series(1, ${FIRMS}) f) x`,
    );
    // The secondary indexes of the big tables, kept for the `indexes` phase and dropped for the load.
    await q('', `drop table if exists bench_scale_indexes`);
    await q(
      '',
      `create table bench_scale_indexes as select i.indexname, i.indexdef from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      [BIG_TABLES],
    );
    const indexes = (await q('', 'select indexname, indexdef from bench_scale_indexes')).rows as {
      indexname: string;
      indexdef: string;
    }[];
    for (const index of indexes) await q('', `drop index "${index.indexname}"`);
    log(`dropped ${indexes.length} secondary indexes of ${BIG_TABLES.length} tables`);

    await q(
      'orgs',
      `insert into orgs (id, name, country, time_zone, currency, fiscal_year_start_month)
     select pg_temp.sid(${K.org}, f, 0), '${FIRM_PREFIX}' || lpad(f::text, 4, '0'), 'IN', 'Asia/Kolkata', 'INR', 4
     from bench_scale_firms order by f`,
    );
    await q(
      'roles',
      `insert into roles (id, org_id, name, permissions)
     select pg_temp.sid(${K.role}, f, r), pg_temp.sid(${K.org}, f, 0), (array['Owner','Staff'])[r],
       case when r = 1 then $1::text[] else '{clients.view,tasks.view,timesheets.view}'::text[] end
     from bench_scale_firms, generate_series(1, 2) r`,
      [[...ALL_PERMISSIONS]],
    );
    await q(
      'members',
      `insert into members (id, org_id, sub, email, first_name, last_name, role_id, is_owner, is_verified, status)
     select pg_temp.sid(${K.member}, f, n), pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.member}, f, n)::text,
       'member' || n || '@firm' || f || '.scale.test',
       (${textArray(FIRST)})[1 + pg_temp.h(1, f, n) % ${FIRST.length}],
       (${textArray(LAST)})[1 + pg_temp.h(2, f, n) % ${LAST.length}],
       pg_temp.sid(${K.role}, f, case when n = 1 then 1 else 2 end), n = 1, true,
       case when n > 3 and pg_temp.h(3, f, n) % 25 = 0 then 'inactive' else 'active' end
     from bench_scale_firms, generate_series(1, m) n`,
    );
    await q(
      'client groups',
      `insert into client_groups (id, org_id, name)
     select pg_temp.sid(${K.group}, f, n), pg_temp.sid(${K.org}, f, 0), 'Group ' || n
     from bench_scale_firms, generate_series(1, g) n`,
    );
    await q(
      'services',
      `insert into services (id, org_id, name, code, frequency, default_fee, billing_mode)
     select pg_temp.sid(${K.service}, f, n), pg_temp.sid(${K.org}, f, 0),
       (${textArray(SERVICE_NAMES)})[1 + (n - 1) % ${SERVICE_NAMES.length}] || case when n > ${SERVICE_NAMES.length} then ' ' || ((n - 1) / ${SERVICE_NAMES.length} + 1) else '' end,
       'S' || lpad(n::text, 3, '0'),
       (array['monthly','quarterly','yearly','yearly','one_time'])[1 + n % 5], 5000 + 500 * n, 'fixed'
     from bench_scale_firms, generate_series(1, s) n`,
    );
    // Clients in one statement, the firms interleaved in a hashed order (as if signed up over time).
    await q(
      'clients',
      `insert into clients (id, org_id, code, name, type, group_id, email, phone, city, country, tags, status, created_at)
     select pg_temp.sid(${K.client}, f, n), pg_temp.sid(${K.org}, f, 0), 'C' || lpad(n::text, 5, '0'),
       (${textArray(FIRST)})[1 + pg_temp.h(11, f, n) % ${FIRST.length}] || ' ' ||
         (${textArray(LAST)})[1 + pg_temp.h(12, f, n) % ${LAST.length}] ||
         case when pg_temp.h(13, f, n) % 10 >= 6 then ' Traders' else '' end || ' ' || n,
       (${textArray(TYPES)})[1 + pg_temp.h(14, f, n) % ${TYPES.length}],
       case when pg_temp.h(15, f, n) % 3 = 0 then pg_temp.sid(${K.group}, f, 1 + pg_temp.h(16, f, n) % g) end,
       'client' || n || '@firm' || f || '.scale.test', '+91 98' || lpad((pg_temp.h(17, f, n) % 100000000)::text, 8, '0'),
       (array['Mumbai','Pune','Chennai','Delhi','Bengaluru'])[1 + pg_temp.h(18, f, n) % 5], 'IN',
       case when pg_temp.h(19, f, n) % 5 = 0 then '{gst}'::text[] else '{}'::text[] end,
       case when pg_temp.h(20, f, n) % 12 = 0 then 'inactive' else 'active' end,
       now() - make_interval(days => (pg_temp.h(21, f, n) % 1500)::int)
     from bench_scale_firms, generate_series(1, c) n
     order by pg_temp.h(22, f, n)`,
    );
    await q(
      'client team',
      `insert into client_team (org_id, client_id, member_id, responsibility)
     select pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.client}, f, n), pg_temp.sid(${K.member}, f, 1 + pg_temp.h(31, f, n) % m), 'Manager'
     from bench_scale_firms, generate_series(1, c) n order by pg_temp.h(22, f, n)`,
    );
    // Two engagements a client (engagement 2k-1 and 2k of client k), two services that differ.
    const engagementService = `1 + case when e = 1 then k % s else (k + 1 + k % 3) % s end`;
    await q(
      'engagements',
      `insert into client_services (id, org_id, client_id, service_id, start_date, fee)
     select pg_temp.sid(${K.engagement}, f, 2 * k - 2 + e), pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.client}, f, k),
       pg_temp.sid(${K.service}, f, ${engagementService}), '${today}'::date - (400 + pg_temp.h(41, f, k) % 700)::int,
       5000 + 1000 * (pg_temp.h(42, f, k) % 20)
     from bench_scale_firms, generate_series(1, c) k, generate_series(1, 2) e order by pg_temp.h(22, f, k), e`,
    );
    // A project per engagement: the first's period is past (mostly filed), the second's is open.
    await q(
      'projects',
      `insert into projects (id, org_id, client_id, service_id, client_service_id, name, period_key, period_start,
       period_end, status, start_date, due_date, completed_date, owner_id, engagement_service_id, engagement_start,
       engagement_end, budget_minutes)
     select pg_temp.sid(${K.project}, f, 2 * k - 2 + e), pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.client}, f, k),
       pg_temp.sid(${K.service}, f, sv), pg_temp.sid(${K.engagement}, f, 2 * k - 2 + e),
       (${textArray(SERVICE_NAMES)})[1 + (sv - 1) % ${SERVICE_NAMES.length}] || ' · ' || to_char(ps, 'Mon YYYY'),
       to_char(ps, 'YYYY-MM'), ps, (ps + interval '1 month - 1 day')::date, st, ps, due,
       case when st = 'COMPLETED' then due - (r % 10)::int + time '12:00' end,
       pg_temp.sid(${K.member}, f, 1 + pg_temp.h(31, f, k) % m), pg_temp.sid(${K.service}, f, sv),
       '${today}'::date - (400 + pg_temp.h(41, f, k) % 700)::int, null, case when r % 4 = 0 then 600 + 60 * (r % 20) end
     from (
       select f, m, k, e, ${engagementService} as sv, r, due, date_trunc('month', due - 40)::date as ps,
         case when e = 1 then case when r % 100 < 85 then 'COMPLETED' when r % 2 = 0 then 'IN_REVIEW' else 'IN_PROGRESS' end
              else case when r % 100 < 10 then 'IN_PROGRESS' else 'SCHEDULED' end end as st
       from (select f, m, s, k, e, pg_temp.h(51, f, 2 * k + e) as r,
               '${today}'::date + case when e = 1 then -(pg_temp.h(52, f, k) % 180)::int else (pg_temp.h(52, f, k) % 120)::int + 1 end as due
             from bench_scale_firms, generate_series(1, c) k, generate_series(1, 2) e) x
     ) p order by pg_temp.h(22, f, k), e`,
    );
    await q(
      'project members',
      `insert into project_members (org_id, project_id, member_id)
     select org_id, id, owner_id from projects`,
    );
  }

  // Ten tasks a client, in twenty slices across all firms: task 10(k-1)+j is the client's j-th;
  // j 1-4 are in its first project, 5-8 in its second, 9-10 stand alone (due within the year).
  if (run('tasks')) await tasks();
  async function tasks() {
    const SLICES = 20;
    const taskRows = (slice: number) => `
    select f, m, t, k, j, p, r, due,
      case when due < '${today}'::date then case when p = 1 or r % 100 < 86 then 'COMPLETED'
             when r % 3 = 0 then 'SCHEDULED' when r % 3 = 1 then 'IN_PROGRESS' else 'IN_REVIEW' end
           when due < '${today}'::date + 30 then case when r % 100 < 12 then 'COMPLETED'
             when r % 100 < 45 then 'IN_PROGRESS' when r % 100 < 65 then 'IN_REVIEW' else 'SCHEDULED' end
           else case when r % 100 < 3 then 'COMPLETED' when r % 100 < 15 then 'IN_PROGRESS' else 'SCHEDULED' end end as st
    from (
      select f, m, t, k, j, case when j <= 4 then 1 when j <= 8 then 2 end as p, pg_temp.h(61, f, t) as r,
        case when j <= 4 then '${today}'::date - (pg_temp.h(52, f, k) % 180)::int - 2 * (4 - j)
             when j <= 8 then '${today}'::date + (pg_temp.h(52, f, k) % 120)::int + 1 - 2 * (8 - j)
             else '${today}'::date + (pg_temp.h(62, f, t) % 365)::int - 182 end as due
      from (select f, m, t, (t - 1) / 10 + 1 as k, (t - 1) % 10 + 1 as j
            from bench_scale_firms, generate_series(c * 10 * ${slice} / ${SLICES} + 1, c * 10 * ${slice + 1} / ${SLICES}) t) a
    ) b`;
    const [firstSlice, lastSlice] = range(process.env.BENCH_SCALE_TASK_SLICES, SLICES);
    for (let slice = firstSlice; slice <= lastSlice; slice++) {
      await q(
        `tasks slice ${slice + 1}/${SLICES}`,
        `with rows as (${taskRows(slice)}),
       ins as (
         insert into tasks (id, org_id, project_id, client_id, title, status, priority, due_date, completed_date, tags,
           for_client, position, created_at)
         select pg_temp.sid(${K.task}, f, t), pg_temp.sid(${K.org}, f, 0),
           case when p is not null then pg_temp.sid(${K.project}, f, 2 * k - 2 + p) end,
           case when p is not null or r % 10 < 9 then pg_temp.sid(${K.client}, f, k) end,
           (${textArray(TASK_TITLES)})[1 + (j - 1) % ${TASK_TITLES.length}], st,
           (array['low','medium','medium','high','urgent'])[1 + r % 5], due,
           case when st = 'COMPLETED' then least(now() - interval '1 hour', due - (r % 4)::int + time '11:00') end,
           case when r % 100 < 30 then '{followup}'::text[] else '{}'::text[] end, j = 1 and r % 5 = 0, j,
           due - 30 + time '09:00'
         from rows order by pg_temp.h(63, f, t)
         returning 1
       )
       insert into task_assignees (org_id, task_id, member_id, due_date, status, completed_date)
       select pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.task}, f, t),
         pg_temp.sid(${K.member}, f, case when r % 10 < 8 then 1 + pg_temp.h(31, f, k) % m else 1 + pg_temp.h(64, f, t) % m end),
         due, st, case when st = 'COMPLETED' then least(now() - interval '1 hour', due - (r % 4)::int + time '11:00') end
       from rows order by pg_temp.h(63, f, t)`,
      );
    }
  }
  if (run('time')) await time();
  async function time() {
    // A week of time entries across all firms a statement: twenty entries a client over 52 weeks
    // (entry 20(k-1)+i is client k's), logged by the client's manager mostly, on a weekday.
    // The weeks once, with the first slice of entries.
    if (!/^[1-9]/.test(process.env.BENCH_SCALE_WEEKS ?? ''))
      await q(
        'timesheet weeks',
        `insert into timesheet_weeks (org_id, member_id, week_start, status, submitted_at, decided_at, decided_by)
     select pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.member}, f, n), ws::date,
       case when ws::date >= '${addDays(weekStart, -7)}'::date then 'submitted' else 'approved' end,
       ws + interval '5 days', case when ws::date < '${addDays(weekStart, -7)}'::date then ws + interval '8 days' end,
       case when ws::date < '${addDays(weekStart, -7)}'::date then pg_temp.sid(${K.member}, f, 1) end
     from bench_scale_firms, generate_series(1, m) n,
       generate_series('${firstWeek}'::date, '${addDays(weekStart, -7)}'::date, interval '7 days') ws
     order by ws, pg_temp.h(71, f, n)`,
      );
    const WEEKS = 52;
    const [firstWeekN, lastWeekN] = range(process.env.BENCH_SCALE_WEEKS, WEEKS);
    for (let w = firstWeekN; w <= lastWeekN; w++) {
      const ws = addDays(firstWeek, w * 7);
      const status = w === WEEKS - 1 ? `'draft'` : w === WEEKS - 2 ? `'submitted'` : `'approved'`;
      // Weeks older than eight weeks are billed: their billable entries sit on the client's invoice.
      const billed = w < WEEKS - 8;
      await q(
        `time entries week ${w + 1}/${WEEKS}`,
        `insert into timesheet_entries (id, org_id, member_id, date, minutes, client_id, project_id, task_id, service_id,
         billable, note, status, bill_rate, cost_rate, invoice_line_id, billed_amount, created_at)
       select pg_temp.sid(${K.entry}, f, i), pg_temp.sid(${K.org}, f, 0),
         pg_temp.sid(${K.member}, f, case when r % 10 < 7 then 1 + pg_temp.h(31, f, k) % m else 1 + pg_temp.h(81, f, i) % m end),
         least('${ws}'::date + (r % 5)::int, '${today}'::date), 15 * (1 + r % 16), pg_temp.sid(${K.client}, f, k),
         case when p is not null then pg_temp.sid(${K.project}, f, 2 * k - 2 + p) end,
         case when p is not null then pg_temp.sid(${K.task}, f, 10 * (k - 1) + 4 * (p - 1) + 1 + r % 4) end,
         case when p is not null then pg_temp.sid(${K.service}, f, 1 + case when p = 1 then k % s else (k + 1 + k % 3) % s end) end,
         billable, '', ${status}, 150000, 60000,
         case when ${billed} and billable then pg_temp.sid(${K.line}, f, k) end,
         case when ${billed} and billable then 150000 * 15 * (1 + r % 16) / 60 end,
         '${ws}'::date + (r % 5)::int + time '18:00'
       from (select f, m, s, i, (i - 1) / 20 + 1 as k, r, case when r % 10 < 6 then 1 + (r / 10) % 2 end as p,
               r % 10 < 7 as billable
             from (select f, m, s, i, pg_temp.h(82, f, i) as r
                   from bench_scale_firms, generate_series(c * 20 * ${w} / ${WEEKS} + 1, c * 20 * ${w + 1} / ${WEEKS}) i) a) b
       order by pg_temp.h(83, f, i)`,
      );
    }
  }
  if (run('billing')) await billing();
  async function billing() {
    // One invoice a client for its billed time, issued over the past weeks; one line each.
    const fy = Number(today.slice(5, 7)) >= 4 ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
    const fiscalYear = `${fy}-${String((fy + 1) % 100).padStart(2, '0')}`;
    await q(
      'invoices',
      `insert into invoices (id, org_id, client_id, kind, status, series, fiscal_year, seq, number, issue_date, due_date,
       currency, subtotal, tax_total, total, amount_paid, balance, issued_at, sent_at, issued_by, created_by, created_at)
     select pg_temp.sid(${K.invoice}, f, k), pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.client}, f, k), 'invoice', st,
       'INV', '${fiscalYear}', case when st <> 'draft' then k end,
       case when st <> 'draft' then 'INV/${fiscalYear}/' || lpad(k::text, 5, '0') end,
       issue, issue + 15, 'INR', amount, amount * 18 / 100, amount * 118 / 100, 0,
       case when st <> 'draft' then amount * 118 / 100 else 0 end,
       case when st <> 'draft' then issue + time '10:00' end, case when st = 'sent' then issue + time '10:05' end,
       case when st <> 'draft' then pg_temp.sid(${K.member}, f, 1) end, pg_temp.sid(${K.member}, f, 1), issue + time '09:00'
     from (select f, k, '${today}'::date - (50 + pg_temp.h(91, f, k) % 40)::int as issue,
             100000 * (5 + pg_temp.h(92, f, k) % 50) as amount,
             (array['draft','issued','sent','sent','sent'])[1 + pg_temp.h(93, f, k) % 5] as st
           from bench_scale_firms, generate_series(1, c) k) x
     order by issue, pg_temp.h(94, f, k)`,
    );
    await q(
      'invoice lines',
      `insert into invoice_lines (id, org_id, invoice_id, position, kind, description, quantity_milli, rate, amount,
       tax_code, tax_rate_bp, igst, created_at)
     select pg_temp.sid(${K.line}, f, k), pg_temp.sid(${K.org}, f, 0), pg_temp.sid(${K.invoice}, f, k), 1, 'time',
       'Professional services', 1000, amount, amount, '998221', 1800, amount * 18 / 100, issue + time '09:00'
     from (select f, k, '${today}'::date - (50 + pg_temp.h(91, f, k) % 40)::int as issue,
             100000 * (5 + pg_temp.h(92, f, k) % 50) as amount
           from bench_scale_firms, generate_series(1, c) k) x
     order by issue, pg_temp.h(94, f, k)`,
    );
  }
  if (run('log')) await systemLog();
  async function systemLog() {
    await q(
      'system log',
      `insert into system_log (id, org_id, actor_kind, actor_member_id, action, record_type, record_id, summary, at)
     select pg_temp.sid(${K.log}, f, n), pg_temp.sid(${K.org}, f, 0), 'member',
       pg_temp.sid(${K.member}, f, 1 + pg_temp.h(101, f, n) % m), a.action, 'client', pg_temp.sid(${K.client}, f, 1 + (n - 1) % c)::text,
       a.action || ' client C' || lpad((1 + (n - 1) % c)::text, 5, '0'), at
     from bench_scale_firms, generate_series(1, 2 * c) n,
       lateral (select (array['client.create','client.update','task.update','project.update'])[1 + pg_temp.h(102, f, n) % 4] as action,
                  now() - make_interval(secs => (pg_temp.h(103, f, n) % 31536000)::int) as at) a
     order by at`,
    );
  }
  await q('', 'set session_replication_role = origin');
  if (run('indexes')) {
    // BENCH_SCALE_INDEX_PART "i/n": the i-th of n shares (0-based), to build them over n connections.
    const [part, parts] = (process.env.BENCH_SCALE_INDEX_PART ?? '0/1').split('/').map(Number);
    const { rows } = await q(
      '',
      `select indexname, indexdef from (select *, row_number() over (order by indexname) as n from bench_scale_indexes) x
       where n % $2 = $1`,
      [part ?? 0, parts ?? 1],
    );
    for (const index of rows as { indexname: string; indexdef: string }[]) {
      await q(`index ${index.indexname}`, index.indexdef);
    }
  }
}

/**
 * Every foreign key of the loaded tables, checked as ALTER TABLE … VALIDATE CONSTRAINT would (one
 * anti-join each): the load ran without triggers, so this is what proves the rows keep the keys.
 */
export async function checkKeys(client: pg.Client, log: TLog): Promise<number> {
  const keys = (
    await client.query(
      `select c.conrelid::regclass::text as tbl, c.conname,
         (select array_agg(a.attname order by k.i) from unnest(c.conkey) with ordinality k(n, i)
            join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n)::text[] as cols,
         c.confrelid::regclass::text as ref,
         (select array_agg(a.attname order by k.i) from unnest(c.confkey) with ordinality k(n, i)
            join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n)::text[] as refcols
       from pg_constraint c where c.contype = 'f' and c.conrelid::regclass::text = any($1)`,
      [[...BIG_TABLES, 'orgs', 'roles', 'members', 'client_groups', 'services']],
    )
  ).rows as { tbl: string; conname: string; cols: string[]; ref: string; refcols: string[] }[];
  let bad = 0;
  for (const key of keys) {
    const start = performance.now();
    const on = key.cols.map((c, i) => `r."${key.refcols[i]}" = t."${c}"`).join(' and ');
    const notNull = key.cols.map((c) => `t."${c}" is not null`).join(' and ');
    const { rows } = await client.query(
      `select count(*)::int as n from "${key.tbl}" t where ${notNull}
       and not exists (select 1 from "${key.ref}" r where ${on})`,
    );
    const n = (rows[0] as { n: number }).n;
    bad += n;
    log(`key ${key.conname}: ${n} missing in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  return bad;
}
