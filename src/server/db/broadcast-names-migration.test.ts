import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsBefore, openMigrationTarget, type TMigrationTarget } from '../test/migration-target';
import { migrationsFolder } from './client';

// Migrations 0043 and 0044: broadcasts made before they had names get their template's name, else
// their subject without its placeholders, else "Broadcast" (domain/broadcasts.ts, defaultBroadcastName).

const MIGRATION = '0043_broadcast_names';
const A = '00000000-0000-4000-8000-0000000000c1';
const T = '00000000-0000-4000-8000-0000000000c2';

let target: TMigrationTarget;
let before: string;
beforeAll(async () => {
  before = migrationsBefore(MIGRATION);
  target = await openMigrationTarget();
  await target.migrate(before);
  const audience = `'{"statuses":["active"]}'::jsonb`;
  await target.exec(`
    insert into orgs (id, name) values ('${A}', 'Old firm');
    insert into broadcast_templates (id, org_id, name, subject, body_html)
      values ('${T}', '${A}', 'Season letter', '{{client_name}}: season', '<p>x</p>');
    insert into broadcasts (id, org_id, template_id, subject, body_html, audience, status) values
      (gen_random_uuid(), '${A}', '${T}', '{{client_name}}: season', '<p>x</p>', ${audience}, 'completed'),
      (gen_random_uuid(), '${A}', null, '{{client_name}}: documents for {{fiscal_year|this year}}', '<p>x</p>', ${audience}, 'completed'),
      (gen_random_uuid(), '${A}', null, '{{client_name}}', '<p>x</p>', ${audience}, 'cancelled');`);
});
afterAll(async () => {
  await target?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

it('names every broadcast made before names, never leaving one blank', async () => {
  await target.migrate(migrationsFolder);
  const rows = await target.run(`select name from broadcasts where org_id = '${A}'`);
  expect(rows.map((r) => String(r.name)).sort()).toEqual(['Broadcast', 'Season letter', 'documents for']);
});
