import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { TDatabase } from './client';
import { rowsOf } from './sql';

let database: TDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

// `order by x desc` is DESC NULLS FIRST in PostgreSQL, and an index column made DESC NULLS LAST
// (drizzle's plain `.desc()`) cannot serve it, NOT NULL or not: the planner read every row of the
// firm and sorted them (the inbox, the system log, notifications). Index columns that go down are
// written `.desc().nullsFirst()`.
it('has no index column in DESC NULLS LAST order, which no newest-first list can read', async () => {
  const rows = rowsOf<{ indexname: string }>(
    await database.db.execute(sql`
      select indexname from pg_indexes
      where schemaname = 'public' and indexdef like '%DESC NULLS LAST%' order by indexname`),
  );
  expect(rows.map((r) => r.indexname)).toEqual([]);
});
