import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../test/templates';
import { migrationsFolder } from './client';

// Migration 0017 (firm foreign keys) on a database that the old schema let go wrong: it must stop,
// changing nothing, on a reference into another firm, and clear references to rows that are gone.

const MIGRATION = '0017_firm_foreign_keys';

/** The migrations folder as it was before MIGRATION (the journal cut before it). */
function foldersBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-migrations-'));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === MIGRATION);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type TTarget = {
  run(query: string): Promise<Record<string, unknown>[]>;
  /** Several statements at once. */
  exec(script: string): Promise<void>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
};

async function openTarget(): Promise<TTarget> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const client = await PGlite.create({ extensions: { pg_trgm, btree_gin } });
    const db = drizzlePglite({ client, casing: 'snake_case' });
    return {
      run: async (query) => (await client.query<Record<string, unknown>>(query)).rows,
      exec: async (script) => {
        await client.exec(script);
      },
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const name = `test_fks_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await createDatabase(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  const db = drizzlePg({ client, casing: 'snake_case' });
  return {
    run: async (query) => (await client.query(query)).rows,
    exec: async (script) => {
      await client.query(script);
    },
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    async close() {
      await client.end();
      await dropDatabase(url, name);
    },
  };
}

let target: TTarget;
let before: string;
beforeAll(async () => {
  before = foldersBefore();
  target = await openTarget();
  await target.migrate(before);
  // Two firms with a role and a member each; firm A's task names firm B's member as its creator
  // (crossing) and firm A's other task a member that does not exist (an orphan).
  await target.exec(`
    insert into orgs (id, name) values
      ('00000000-0000-4000-8000-00000000000a', 'A'), ('00000000-0000-4000-8000-00000000000b', 'B');
    insert into roles (id, org_id, name) values
      ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-00000000000a', 'Staff'),
      ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-00000000000b', 'Staff');
    insert into members (id, org_id, email, role_id) values
      ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-00000000000a', 'a@example.com',
       '00000000-0000-4000-8000-0000000000a1'),
      ('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-00000000000b', 'b@example.com',
       '00000000-0000-4000-8000-0000000000b1');
    insert into tasks (id, org_id, title, created_by) values
      ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-00000000000a', 'Crossing',
       '00000000-0000-4000-8000-0000000000b2'),
      ('00000000-0000-4000-8000-0000000000a4', '00000000-0000-4000-8000-00000000000a', 'Orphan',
       '00000000-0000-4000-8000-0000000000ff'),
      ('00000000-0000-4000-8000-0000000000a5', '00000000-0000-4000-8000-00000000000a', 'Fine',
       '00000000-0000-4000-8000-0000000000a2');`);
});
afterAll(async () => {
  await target?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

const createdBy = async () =>
  Object.fromEntries(
    (await target.run('select title, created_by from tasks order by title')).map((r) => [
      r.title,
      r.created_by,
    ]),
  );
const keyExists = async () =>
  (await target.run(`select 1 from pg_constraint where conname = 'tasks_created_by_fk'`)).length > 0;

it('stops on a reference into another firm, naming it, and changes nothing', async () => {
  const failure = await target.migrate(migrationsFolder).then(
    () => undefined,
    (error: unknown) => error,
  );
  const messages = [];
  for (let e = failure; e instanceof Error; e = e.cause) messages.push(e.message);
  expect(messages.join('\n')).toContain('tasks.created_by → members: 1 row(s)');
  expect(await keyExists()).toBe(false);
  expect(await createdBy()).toEqual({
    Crossing: '00000000-0000-4000-8000-0000000000b2',
    Fine: '00000000-0000-4000-8000-0000000000a2',
    Orphan: '00000000-0000-4000-8000-0000000000ff',
  });
});

it('once the crossing row is put right, clears the orphan and adds the keys', async () => {
  await target.run(`update tasks set created_by = null where title = 'Crossing'`);
  await target.migrate(migrationsFolder);
  expect(await keyExists()).toBe(true);
  expect(await createdBy()).toEqual({
    Crossing: null,
    Fine: '00000000-0000-4000-8000-0000000000a2',
    Orphan: null,
  });
  // The key holds from now on, and a member's deletion clears the link but not the task's firm.
  await expect(
    target.run(`update tasks set created_by = '00000000-0000-4000-8000-0000000000b2' where title = 'Fine'`),
  ).rejects.toThrow(/tasks_created_by_fk/);
  await target.run(`delete from members where id = '00000000-0000-4000-8000-0000000000a2'`);
  expect(await target.run(`select org_id, created_by from tasks where title = 'Fine'`)).toEqual([
    { org_id: '00000000-0000-4000-8000-00000000000a', created_by: null },
  ]);
});
