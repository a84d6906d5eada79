import { sql } from 'drizzle-orm';
import { addDays, weekStartOf } from '../src/domain/days';
import type { TDb } from '../src/server/db/client';

/**
 * A firm's people and their time: members with managers, offices and work patterns, holidays, ten
 * leave types with two years of requests and ledger, and about `entries` timesheet entries over the
 * same years, in weeks that are approved, submitted, sent back or open. Generated inside the
 * database, INSERT … SELECT over generate_series with deterministic hashes (the same firm on every
 * run), the entries four weeks per statement.
 */
export type TPeopleBook = {
  /** Members in all, the two the caller already made (owner and staff) included. */
  members: number;
  years: number;
  /** Timesheet entries to aim at; the entries per working day follow from it. */
  entries: number;
  /** The firm's today. */
  today: string;
};

export type TPeopleResult = {
  members: number;
  entries: number;
  perDay: number;
  weeks: number;
  requests: number;
  ledger: number;
  from: string;
};

export const OFFICES = ['Mumbai', 'Delhi', 'Bengaluru'];
const CLIENTS = 2000;

// A deterministic spread of integers into [0, 2^31).
const h = (expr: ReturnType<typeof sql>, salt: number) =>
  sql`(hashint8((${expr})::bigint * 7919 + ${salt}) & 2147483647)`;

// name, unit, accrual, allowance (hundredths of the unit a year), paid, allow negative
const TYPES: [string, string, string, number, boolean, boolean][] = [
  ['Annual leave', 'day', 'yearly', 2000, true, false],
  ['Sick leave', 'day', 'yearly', 1200, true, false],
  ['Casual leave', 'day', 'monthly', 1200, true, false],
  ['Earned leave', 'day', 'monthly', 1500, true, false],
  ['Compensatory off', 'half_day', 'yearly', 800, true, false],
  ['Study leave', 'day', 'yearly', 500, true, false],
  ['Bereavement leave', 'day', 'yearly', 500, true, false],
  ['Paternity leave', 'day', 'yearly', 1000, true, false],
  ['Volunteering', 'hour', 'monthly', 2400, true, false],
  ['Unpaid leave', 'day', 'yearly', 0, false, true],
];

export async function generatePeople(db: TDb, orgId: string, book: TPeopleBook): Promise<TPeopleResult> {
  const org = sql`${orgId}::uuid`;
  const today = book.today;
  const from = weekStartOf(addDays(today, -Math.round(book.years * 365.25)));
  const lastWeek = addDays(weekStartOf(today), -7);
  const firstYear = Number(from.slice(0, 4));
  const thisYear = Number(today.slice(0, 4));

  await db.execute(sql`update orgs set time_zone = 'Asia/Kolkata', currency = 'INR' where id = ${org}`);
  await db.execute(sql`
    insert into leave_settings (org_id, offices) values (${org}, ${`{${OFFICES.join(',')}}`}::text[])
    on conflict (org_id) do update set offices = excluded.offices`);
  await db.execute(sql`
    insert into members (id, org_id, email, first_name, last_name, role_id, is_verified)
    select gen_random_uuid(), ${org}, 'member' || g || '@bench.test', 'Member', lpad(g::text, 4, '0'), r.id, true
    from generate_series(3, ${book.members}::int) g
    cross join (select id from roles where org_id = ${org} and name = 'Staff') r`);

  // Numbered helpers for the generators below; dropped at the end.
  await db.execute(sql`drop table if exists bench_m, bench_c, bench_p, bench_t, bench_s`);
  await db.execute(sql`
    create table bench_m as
    select (row_number() over (order by is_owner desc, created_at, email))::int - 1 as n, id
    from members where org_id = ${org}`);
  await db.execute(sql`
    insert into member_work (id, org_id, member_id, manager_id, office, working_days, minutes_per_day)
    select gen_random_uuid(), ${org}, m.id,
           case when m.n >= 25 then (select id from bench_m b where b.n = m.n % 25) end,
           (${`{${OFFICES.join(',')}}`}::text[])[1 + m.n % 3],
           case when m.n % 10 = 9 then '{1,2,3,4,5,6}'::smallint[] end,
           case when m.n % 10 = 9 then 360 end
    from bench_m m`);
  await db.execute(
    sql`alter table bench_m add column office text, add column days int[], add column minutes int`,
  );
  await db.execute(sql`
    update bench_m m set office = w.office,
      days = coalesce(w.working_days::int[], '{1,2,3,4,5}'), minutes = coalesce(w.minutes_per_day, 480)
    from member_work w where w.org_id = ${org} and w.member_id = m.id`);

  // Ten firm-wide holidays a year and three per office.
  await db.execute(sql`
    insert into holidays (id, org_id, date, name, office)
    select gen_random_uuid(), ${org}, make_date(y, (d->>0)::int, (d->>1)::int), 'Holiday ' || (d->>0) || '/' || (d->>1), null
    from generate_series(${firstYear}::int, ${thisYear + 1}::int) y,
         jsonb_array_elements('[[1,26],[3,14],[4,14],[5,1],[8,15],[10,2],[10,20],[11,1],[11,15],[12,25]]'::jsonb) d`);
  await db.execute(sql`
    insert into holidays (id, org_id, date, name, office)
    select gen_random_uuid(), ${org}, make_date(y, (d->>0)::int, (d->>1)::int) + o.i::int, o.office || ' holiday', o.office
    from generate_series(${firstYear}::int, ${thisYear + 1}::int) y,
         jsonb_array_elements('[[2,19],[6,17],[9,7]]'::jsonb) d,
         unnest(${`{${OFFICES.join(',')}}`}::text[]) with ordinality as o(office, i)`);

  for (const [name, unit, accrual, allowance, paid, negative] of TYPES) {
    await db.execute(sql`
      insert into leave_types (id, org_id, name, unit, accrual, allowance, paid, allow_negative, carry_forward_cap)
      values (gen_random_uuid(), ${org}, ${name}, ${unit}, ${accrual}, ${allowance}, ${paid}, ${negative},
              ${name === 'Annual leave' ? 1000 : null})`);
  }
  await db.execute(sql`
    create table bench_s as
    select (row_number() over (order by name))::int - 1 as n, id, name, unit, accrual, allowance
    from leave_types where org_id = ${org}`);

  // About twelve requests a member a year, one to three days each, mostly of the day-based types.
  await db.execute(sql`
    insert into leave_requests (id, org_id, member_id, leave_type_id, start_date, end_date, amount, status,
                                decided_at, decided_by)
    select gen_random_uuid(), ${org}, m.id, s.id, r.start, r.start + r.len - 1, r.len * 100, r.status,
           case when r.status in ('approved', 'rejected') then r.start::timestamptz - interval '3 days' end,
           case when r.status in ('approved', 'rejected') then (select id from bench_m where n = 0) end
    from bench_m m
    cross join generate_series(0, ${Math.ceil(book.years * 12) + 12}::int) k
    cross join lateral (
      select d + case extract(isodow from d)::int when 6 then 2 when 7 then 1 else 0 end as start,
             1 + ${h(sql`m.n * 1000 + k`, 1)} % 3 as len,
             case when d >= ${today}::date
                  then case when ${h(sql`m.n * 1000 + k`, 2)} % 5 < 3 then 'pending' else 'approved' end
                  else case ${h(sql`m.n * 1000 + k`, 3)} % 16 when 0 then 'rejected' when 1 then 'cancelled'
                       else 'approved' end end as status,
             ${h(sql`m.n * 1000 + k`, 4)} % 8 as type
      from (select ${from}::date + (k * 30 + ${h(sql`m.n * 1000 + k`, 5)} % 25)::int as d) x
    ) r
    join bench_s s on s.n = case when r.type < 6 then r.type else 8 end
    where r.start <= ${addDays(today, 60)}::date`);

  // The ledger: yearly allocations, monthly accruals, a carry-forward and its expiry, what was taken.
  await db.execute(sql`
    insert into leave_ledger (id, org_id, member_id, leave_type_id, kind, amount, effective_on, run_key)
    select gen_random_uuid(), ${org}, m.id, s.id, 'allocation', s.allowance, make_date(y, 1, 1), null
    from bench_m m cross join bench_s s cross join generate_series(${firstYear}::int, ${thisYear}::int) y
    where s.accrual = 'yearly' and s.allowance > 0
    union all
    select gen_random_uuid(), ${org}, m.id, s.id, 'accrual', s.allowance / 12, mo::date,
           'accrual:' || s.id || ':' || m.id || ':' || to_char(mo, 'YYYY-MM')
    from bench_m m cross join bench_s s
    cross join generate_series(date_trunc('month', ${from}::date), ${today}::date, interval '1 month') mo
    where s.accrual = 'monthly'
    union all
    select gen_random_uuid(), ${org}, m.id, s.id, k.kind, k.amount, k.eff, null
    from bench_m m cross join bench_s s cross join generate_series(${firstYear + 1}::int, ${thisYear}::int) y
    cross join lateral (values ('carry_forward', 500 + m.n % 5 * 100, make_date(y, 1, 1)),
                               ('expiry', -(m.n % 3) * 100, make_date(y, 3, 31))) k(kind, amount, eff)
    where s.name = 'Annual leave' and (k.kind = 'carry_forward' or k.amount < 0)`);
  await db.execute(sql`
    insert into leave_ledger (id, org_id, member_id, leave_type_id, kind, amount, effective_on, request_id)
    select gen_random_uuid(), org_id, member_id, leave_type_id, 'taken', -amount, start_date, id
    from leave_requests where org_id = ${org} and status = 'approved'`);

  // Clients, two projects each, four tasks a project; a handful of services.
  await db.execute(sql`
    insert into services (id, org_id, name, code)
    select gen_random_uuid(), ${org}, 'Service ' || g, 'S' || g from generate_series(0, 9) g`);
  await db.execute(sql`
    insert into clients (id, org_id, code, name)
    select gen_random_uuid(), ${org}, 'C' || lpad(g::text, 5, '0'), 'Client ' || lpad(g::text, 5, '0')
    from generate_series(0, ${CLIENTS - 1}::int) g`);
  await db.execute(sql`
    create table bench_c as
    select (row_number() over (order by code))::int - 1 as n, id from clients where org_id = ${org}`);
  await db.execute(sql`
    insert into projects (id, org_id, client_id, service_id, name)
    select gen_random_uuid(), ${org}, c.id, (select id from services where org_id = ${org} and code = 'S' || (g % 10)),
           'Project ' || g
    from generate_series(0, ${CLIENTS * 2 - 1}::int) g join bench_c c on c.n = g / 2`);
  await db.execute(sql`
    create table bench_p as
    select (substr(name, 9))::int as n, id, client_id, service_id from projects where org_id = ${org}`);
  await db.execute(sql`
    insert into tasks (id, org_id, project_id, client_id, title)
    select gen_random_uuid(), ${org}, p.id, p.client_id, 'Task ' || g
    from generate_series(0, ${CLIENTS * 8 - 1}::int) g join bench_p p on p.n = g / 4`);
  await db.execute(sql`
    create table bench_t as
    select (substr(title, 6))::int as n, t.id, t.project_id, t.client_id, p.service_id
    from tasks t join bench_p p on p.id = t.project_id where t.org_id = ${org}`);
  await db.execute(sql`create index on bench_t (n)`);

  // Weeks: the current one open; last week mostly submitted; earlier ones approved, a few not.
  await db.execute(sql`
    insert into timesheet_weeks (org_id, member_id, week_start, status, submitted_at, decided_at, decided_by, comment)
    select ${org}, m.id, w.ws, w.status, w.ws + interval '5 days',
           case when w.status in ('approved', 'rejected') then w.ws + interval '8 days' end,
           case when w.status in ('approved', 'rejected') then (select id from bench_m where n = 0) end,
           case when w.status = 'rejected' then 'Please split the client time by task' end
    from bench_m m
    cross join generate_series(${from}::date, ${lastWeek}::date, interval '7 days') ws0
    cross join lateral (
      select ws0::date as ws,
        case when ws0::date = ${lastWeek}::date then
               (array['submitted','submitted','submitted','approved','rejected',null])[1 + ${h(sql`m.n`, 7)} % 6]
             when ws0::date = ${addDays(lastWeek, -7)}::date then
               (array['approved','approved','approved','submitted'])[1 + ${h(sql`m.n`, 8)} % 4]
             else case when ${h(sql`m.n * 100000 + (ws0::date - ${from}::date)`, 9)} % 40 = 0 then 'submitted'
                       else 'approved' end end as status
    ) w
    where w.status is not null`);

  const [workdays] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select (count(*) * 0.9)::int as n from generate_series(${from}::date, ${today}::date, interval '1 day') d
      where extract(isodow from d) < 6`),
  );
  const perDay = Math.max(1, Math.round(book.entries / (book.members * (workdays?.n ?? 1))));

  const restore = await dropSecondaryIndexes(db);
  // Four weeks of the whole firm per statement, oldest first: rows land in the order people record
  // them, so a week's entries sit together in the table as they would in a real one.
  for (let a = from; a <= today; a = addDays(a, 28)) {
    const z = addDays(a, 27) < today ? addDays(a, 27) : today;
    // Every row is made consistent with its parents above, so the load skips the foreign-key
    // triggers (a superuser's session_replication_role) rather than check 5 million rows 5 times.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into timesheet_entries (id, org_id, member_id, date, minutes, client_id, project_id, task_id,
                                       service_id, billable, note, status, bill_rate, cost_rate)
        select gen_random_uuid(), ${org}, m.id, d.day, greatest(6, m.minutes / ${perDay} + (e.r % 7 - 3) * 6),
               case when e.internal then null else t.client_id end,
               case when e.internal then null else t.project_id end,
               case when e.internal or e.r % 3 = 0 then null else t.id end,
               t.service_id,
               not e.internal and e.r % 10 <> 0,
               case when e.r % 4 = 0 then 'Call with the client about ' || t.n else '' end,
               coalesce(w.status, 'draft'),
               case when w.status = 'approved' then 150000 + m.n % 7 * 25000 end,
               case when w.status = 'approved' then 60000 + m.n % 5 * 10000 end
        from bench_m m
        cross join lateral (
          select day::date from generate_series(${a}::date, ${z}::date, interval '1 day') day
          where extract(isodow from day)::int = any(m.days)
        ) d
        cross join generate_series(1, ${perDay}::int) k
        cross join lateral (
          select ${h(sql`m.n::bigint * 10000000 + (d.day - ${from}::date) * 100 + k`, 11)} as r
        ) r0
        cross join lateral (select r0.r, r0.r % 10 = 9 as internal) e
        join bench_t t on t.n = ((m.n * 37 + e.r / 16 % 15) % ${CLIENTS}) * 8 + e.r / 256 % 8
        left join timesheet_weeks w on w.org_id = ${org} and w.member_id = m.id
          and w.week_start = date_trunc('week', d.day)::date
        where not exists (select 1 from holidays hd where hd.org_id = ${org} and hd.date = d.day
                            and (hd.office is null or hd.office = m.office))
          and not exists (select 1 from leave_requests lr where lr.org_id = ${org} and lr.member_id = m.id
                            and lr.status = 'approved' and lr.start_date <= d.day and lr.end_date >= d.day)`);
    });
  }
  await restore();
  await db.execute(sql`drop table bench_m, bench_c, bench_p, bench_t, bench_s`);
  await db.execute(sql`vacuum analyze`);

  const [counts] = rowsOf<TPeopleResult>(
    await db.execute(sql`
      select (select count(*) from members where org_id = ${org})::int as members,
             (select count(*) from timesheet_entries where org_id = ${org})::int as entries,
             (select count(*) from timesheet_weeks where org_id = ${org})::int as weeks,
             (select count(*) from leave_requests where org_id = ${org})::int as requests,
             (select count(*) from leave_ledger where org_id = ${org})::int as ledger`),
  );
  if (!counts) throw new Error('no counts');
  return { ...counts, perDay, from };
}

async function dropSecondaryIndexes(db: TDb) {
  const indexes = rowsOf<{ indexname: string; indexdef: string }>(
    await db.execute(sql`
      select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = 'timesheet_entries'
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  return async () => {
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
  };
}

export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
