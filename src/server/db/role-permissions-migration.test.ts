import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../domain/permissions';
import { migrationsBefore, openMigrationTarget, type TMigrationTarget } from '../test/migration-target';
import { migrationsFolder } from './client';

// Migration 0022: a firm created before the timesheet rights existed gets them on its seeded roles,
// as their seeded definitions now have them; rights a firm changed on its own stay as they are.

const MIGRATION = '0022_role_new_permissions';
const NEW = ['timesheets.approve', 'timesheets.rates'];
const A = '00000000-0000-4000-8000-00000000000a';

/** A seeded role as a firm created before 0019 stored it. */
const oldList = (name: string, without: string[] = []) =>
  (SEEDED_ROLES.find((r) => r.name === name)?.permissions ?? []).filter(
    (p) => !NEW.includes(p) && !without.includes(p),
  );
const pgArray = (list: string[]) => `'{${list.join(',')}}'`;

let target: TMigrationTarget;
let before: string;
beforeAll(async () => {
  before = migrationsBefore(MIGRATION);
  target = await openMigrationTarget();
  await target.migrate(before);
  await target.exec(`
    insert into orgs (id, name) values ('${A}', 'Old firm');
    insert into roles (id, org_id, name, permissions) values
      (gen_random_uuid(), '${A}', 'Owner', ${pgArray(oldList('Owner'))}),
      (gen_random_uuid(), '${A}', 'Admin', ${pgArray(oldList('Admin', ['clients.delete']))}),
      (gen_random_uuid(), '${A}', 'Manager', ${pgArray([...oldList('Manager', ['leaves.create']), 'timesheets.approve'])}),
      (gen_random_uuid(), '${A}', 'Staff', ${pgArray(oldList('Staff'))}),
      (gen_random_uuid(), '${A}', 'Partners', ${pgArray(['clients.view'])});`);
});
afterAll(async () => {
  await target?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

it('gives the seeded roles the rights their definitions gained, and takes nothing a firm chose', async () => {
  await target.migrate(migrationsFolder);
  const rows = await target.run(`select name, permissions from roles where org_id = '${A}'`);
  const of = (name: string) => rows.find((r) => r.name === name)?.permissions as string[];
  expect(of('Owner')).toEqual([...oldList('Owner'), ...NEW]);
  // The firm took clients.delete from its Admin: it stays away.
  expect(of('Admin')).toEqual([...oldList('Admin', ['clients.delete']), ...NEW]);
  expect(of('Admin')).not.toContain('clients.delete');
  // Already there: not added twice; Manager's definition has no rates, and gained leaves.create.
  expect(of('Manager')).toEqual([
    ...oldList('Manager', ['leaves.create']),
    'timesheets.approve',
    'leaves.create',
  ]);
  expect(of('Staff')).toEqual(oldList('Staff'));
  expect(of('Partners')).toEqual(['clients.view']);
  // Every seeded role now holds what its definition holds (less what the firm removed).
  for (const seed of SEEDED_ROLES)
    expect(seed.permissions.filter((p) => !of(seed.name).includes(p))).toEqual(
      seed.name === 'Admin' ? ['clients.delete'] : [],
    );
});
