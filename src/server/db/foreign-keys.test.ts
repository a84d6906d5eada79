import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { TDatabase } from './client';

// Firm data references firm data only through (org_id, x) → (org_id, id) keys: a single-column key
// would let a row point at another firm's row, which only the procedures' checks prevent.

let database: TDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const selectRows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** Tables of the public schema with an org_id column: the firm's data. */
const TENANT_TABLES = sql`
  select c.oid
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
  join pg_attribute a on a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped
  where c.relkind in ('r', 'p')`;

it('keys every reference between firm tables on (org_id, …)', async () => {
  // A key from a firm table to a firm table must pair the referencing org_id with the referenced
  // org_id; a single-column key (or one that leaves org_id out) is an offender.
  const offenders = await selectRows<{ key: string }>(sql`
    select format('%s(%s) → %s(%s) [%s]', con.conrelid::regclass,
      (select string_agg(a.attname, ', ' order by k.i) from unnest(con.conkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n),
      con.confrelid::regclass,
      (select string_agg(a.attname, ', ' order by k.i) from unnest(con.confkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n),
      con.conname) as key
    from pg_constraint con
    where con.contype = 'f'
      and con.conrelid in (${TENANT_TABLES})
      and con.confrelid in (${TENANT_TABLES})
      and not exists (
        select 1
        from unnest(con.conkey, con.confkey) as k(src, dst)
        join pg_attribute sa on sa.attrelid = con.conrelid and sa.attnum = k.src
        join pg_attribute da on da.attrelid = con.confrelid and da.attnum = k.dst
        where sa.attname = 'org_id' and da.attname = 'org_id'
      )
    order by 1`);
  expect(offenders.map((o) => o.key)).toEqual([]);
});

it('clears only the link, never org_id, when a key sets null', async () => {
  // ON DELETE SET NULL on an (org_id, x) key must name x alone (SET NULL (x)); drizzle-kit writes a
  // bare SET NULL, which would try to clear the NOT NULL org_id (see schema/columns.ts).
  const offenders = await selectRows<{ key: string }>(sql`
    select format('%s [%s]', con.conrelid::regclass, con.conname) as key
    from pg_constraint con
    where con.contype = 'f'
      and con.confdeltype = 'n'
      and array_length(con.conkey, 1) > 1
      and (con.confdelsetcols is null or exists (
        select 1 from pg_attribute a
        where a.attrelid = con.conrelid and a.attnum = any (con.confdelsetcols) and a.attname = 'org_id'))
    order by 1`);
  expect(offenders.map((o) => o.key)).toEqual([]);
});

/**
 * uuid columns of firm tables named like references (*_id, *_by) that deliberately have no key,
 * with the reason. Every other such column must be part of a foreign key.
 */
const UNKEYED: Record<string, string> = {
  // Automations' history names what an event was about; it outlives the project, client or rule.
  'automation_events.project_id': 'history that outlives the project',
  'automation_events.client_id': 'history that outlives the client',
  'automation_events.caused_by_rule_id': 'history that outlives the rule',
  'automation_runs.project_id': 'history that outlives the project',
  // What a held mail became once released: a record of the review, kept if the thread goes with its
  // client (a held mail may name no client at all).
  'messages_held.released_message_id': 'history that outlives the message',
  // A member, client, service or task as `kind` says: one key cannot name four tables. A rate left
  // by a deleted record matches no entry again (uuids are never reused).
  'timesheet_rates.ref_id': 'polymorphic by kind',
  // A copy of the project's engagement's service (migration 0038's triggers keep it), read by the
  // services summary only; the engagement's own key to the service holds the reference.
  'projects.engagement_service_id': 'a trigger-kept copy of client_services.service_id',
};

it('keys every *_id and *_by column of a firm table, or says why not', async () => {
  const columns = await selectRows<{ col: string }>(sql`
    select format('%s.%s', c.relname, a.attname) as col
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.oid in (${TENANT_TABLES})
      and a.atttypid = 'uuid'::regtype
      and a.attname <> 'org_id'
      and (a.attname like '%\\_id' or a.attname like '%\\_by')
      and not exists (
        select 1 from pg_constraint con
        where con.contype = 'f' and con.conrelid = c.oid and a.attnum = any (con.conkey)
      )
    order by 1`);
  expect(columns.map((c) => c.col).filter((c) => !(c in UNKEYED))).toEqual([]);
});
