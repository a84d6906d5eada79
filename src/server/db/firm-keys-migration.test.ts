import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsBefore, openMigrationTarget, type TMigrationTarget } from '../test/migration-target';
import { migrationsFolder } from './client';

// Migration 0017 (firm foreign keys) on a database that the old schema let go wrong: it must stop,
// changing nothing, on a reference into another firm, and clear references to rows that are gone.

const MIGRATION = '0017_firm_foreign_keys';

let target: TMigrationTarget;
let before: string;
beforeAll(async () => {
  before = migrationsBefore(MIGRATION);
  target = await openMigrationTarget();
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
