import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../domain/permissions';
import { migrationsBefore, openMigrationTarget, type TMigrationTarget } from '../test/migration-target';
import { migrationsFolder } from './client';

// Migration 0028: firms made before broadcasts.send existed get it on their seeded Owner and Admin
// roles (as SEEDED_ROLES now defines them); Manager, Staff and the firm's own roles stay as they are.

const MIGRATION = '0031_broadcasts';
const A = '00000000-0000-4000-8000-0000000000b1';
const before28 = (name: string) =>
  (SEEDED_ROLES.find((r) => r.name === name)?.permissions ?? []).filter((p) => p !== 'broadcasts.send');
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
      (gen_random_uuid(), '${A}', 'Owner', ${pgArray(before28('Owner'))}),
      (gen_random_uuid(), '${A}', 'Admin', ${pgArray(before28('Admin'))}),
      (gen_random_uuid(), '${A}', 'Manager', ${pgArray(before28('Manager'))}),
      (gen_random_uuid(), '${A}', 'Partners', ${pgArray(['broadcasts.view'])});`);
});
afterAll(async () => {
  await target?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

it('gives Owner and Admin the right to send broadcasts, and nobody else', async () => {
  await target.migrate(migrationsFolder);
  const rows = await target.run(`select name, permissions from roles where org_id = '${A}'`);
  const of = (name: string) => rows.find((r) => r.name === name)?.permissions as string[];
  expect(of('Owner')).toEqual([...before28('Owner'), 'broadcasts.send']);
  expect(of('Admin')).toEqual([...before28('Admin'), 'broadcasts.send']);
  expect(of('Manager')).toEqual(before28('Manager'));
  expect(of('Partners')).toEqual(['broadcasts.view']);
});
