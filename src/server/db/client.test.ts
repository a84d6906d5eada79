import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { TDatabase } from './client';

let database: TDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

it.runIf(process.env.DATABASE_URL)('opens PostgreSQL connections without JIT', async () => {
  // Every connection of the pool, not just the first: take several at once.
  const answers = await Promise.all(
    Array.from({ length: 4 }, () =>
      database.db.execute(sql`select current_setting('jit') as jit, pg_sleep(0.05)`),
    ),
  );
  for (const answer of answers) {
    expect((answer as unknown as { rows: { jit: string }[] }).rows[0]?.jit).toBe('off');
  }
});

it('opens with the extensions the migrations use', async () => {
  const result = (await database.db.execute(
    sql`select extname from pg_extension where extname in ('pg_trgm', 'btree_gin') order by extname`,
  )) as unknown as { rows: { extname: string }[] };
  expect(result.rows.map((r) => r.extname)).toEqual(['btree_gin', 'pg_trgm']);
});
