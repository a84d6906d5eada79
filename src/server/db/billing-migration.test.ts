import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../domain/permissions';
import { migrationsBefore, openMigrationTarget, type TMigrationTarget } from '../test/migration-target';
import { migrationsFolder } from './client';

// Migration 0046: firms made before billing get its three rights on their seeded Owner and Admin
// roles; engagements made before it bill fixed fees from the month billing arrived, and those with
// no fee are billed by the hour.

const MIGRATION = '0046_billing';
const A = '00000000-0000-4000-8000-0000000000c1';
const BILLING = ['billing.view', 'billing.manage', 'billing.collect'];
const before46 = (name: string) =>
  (SEEDED_ROLES.find((r) => r.name === name)?.permissions ?? []).filter((p) => !BILLING.includes(p));
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
      (gen_random_uuid(), '${A}', 'Owner', ${pgArray(before46('Owner'))}),
      (gen_random_uuid(), '${A}', 'Admin', ${pgArray(before46('Admin'))}),
      (gen_random_uuid(), '${A}', 'Manager', ${pgArray(before46('Manager'))}),
      (gen_random_uuid(), '${A}', 'Partners', ${pgArray(['clients.view'])});
    insert into clients (id, org_id, code, name) values ('00000000-0000-4000-8000-0000000000c2', '${A}', 'C1', 'Old client');
    insert into services (id, org_id, name, code, default_fee) values
      ('00000000-0000-4000-8000-0000000000c3', '${A}', 'GST', 'GST', 1500),
      ('00000000-0000-4000-8000-0000000000c4', '${A}', 'Advice', 'ADV', null);
    insert into client_services (id, org_id, client_id, service_id, start_date, fee) values
      ('00000000-0000-4000-8000-0000000000c5', '${A}', '00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000c3', '2020-04-01', 1500),
      ('00000000-0000-4000-8000-0000000000c6', '${A}', '00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000c4', '2099-01-01', null);`);
});
afterAll(async () => {
  await target?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

it('gives Owner and Admin the billing rights, and nobody else', async () => {
  await target.migrate(migrationsFolder);
  const rows = await target.run(`select name, permissions from roles where org_id = '${A}'`);
  const of = (name: string) => rows.find((r) => r.name === name)?.permissions as string[];
  expect(of('Owner')).toEqual([...before46('Owner'), ...BILLING]);
  expect(of('Admin')).toEqual([...before46('Admin'), ...BILLING]);
  expect(of('Manager')).toEqual(before46('Manager'));
  expect(of('Partners')).toEqual(['clients.view']);
});

it('bills old engagements from this month on, by the hour when they had no fee', async () => {
  const rows = await target.run(
    `select id, billing_mode, bill_from::text as bill_from, to_char(date_trunc('month', current_date), 'YYYY-MM-DD') as month
     from client_services where org_id = '${A}' order by id`,
  );
  expect(rows.map((r) => [r.billing_mode, r.bill_from === r.month])).toEqual([
    ['fixed', true],
    ['hourly', false],
  ]);
  expect(rows[1]?.bill_from).toBe('2099-01-01');
  const services = await target.run(
    `select code, billing_mode from services where org_id = '${A}' order by code`,
  );
  expect(services).toEqual([
    { code: 'ADV', billing_mode: 'hourly' },
    { code: 'GST', billing_mode: 'fixed' },
  ]);
});
