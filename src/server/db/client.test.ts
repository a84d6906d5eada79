import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import { PGLITE_TEMPLATE_ENV } from '../test/templates';
import { openPglite, openPostgres, type TDatabase } from './client';

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

it.runIf(process.env.DATABASE_URL)(
  'holds the pool to DATABASE_POOL_MAX connections and cancels a statement past the timeout',
  async () => {
    const other = await openPostgres(database.url ?? '', { max: 2, statementTimeoutMs: 300 });
    try {
      const backends = async () =>
        Promise.all(
          Array.from({ length: 5 }, () =>
            other.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`),
          ),
        );
      const pids = new Set(
        (await backends()).map((r) => (r as unknown as { rows: { pid: number }[] }).rows[0]?.pid),
      );
      expect(pids.size).toBeLessThanOrEqual(2);
      await expect(other.db.execute(sql`select pg_sleep(2)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '57014' }),
      });
      // A short statement on the same pool still answers.
      await other.ping();
    } finally {
      await other.close();
    }
  },
);

it('opens with the extensions the migrations use', async () => {
  const result = (await database.db.execute(
    sql`select extname from pg_extension where extname in ('pg_trgm', 'btree_gin') order by extname`,
  )) as unknown as { rows: { extname: string }[] };
  expect(result.rows.map((r) => r.extname)).toEqual(['btree_gin', 'pg_trgm']);
});

it.runIf(!process.env.DATABASE_URL)(
  'starts a new PGlite directory from a template file, and counts it made only once whole',
  async () => {
    const templateFile = process.env[PGLITE_TEMPLATE_ENV];
    expect(templateFile, 'the integration setup names a template').toBeTruthy();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-template-'));
    try {
      const first = await openPglite(dir, { templateFile });
      await first.db.execute(sql`create table kept (v text)`);
      await first.db.execute(sql`insert into kept values ('written')`);
      await first.close();
      expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);

      // Opened again, it is the same database, not a fresh copy over it.
      const again = await openPglite(dir, { templateFile });
      const kept = (await again.db.execute(sql`select v from kept`)) as unknown as { rows: { v: string }[] };
      expect(kept.rows.map((r) => r.v)).toEqual(['written']);
      // The template's small WAL segments (less to write at a first start), checkpoints as far
      // apart as PostgreSQL's defaults for 16 MB segments.
      const wal = (await again.db.execute(
        sql`select current_setting('wal_segment_size') as segment, current_setting('min_wal_size') as min, current_setting('max_wal_size') as max`,
      )) as unknown as { rows: { segment: string; min: string; max: string }[] };
      expect(wal.rows[0]).toEqual({ segment: '1MB', min: '80MB', max: '1GB' });
      await again.close();

      // A start cut off while unpacking left some files, PG_VERSION among them, and its marker:
      // the next one unpacks again rather than opening half a database.
      const cut = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-template-cut-'));
      fs.writeFileSync(path.join(cut, '.unpacking-template'), '');
      fs.writeFileSync(path.join(cut, 'PG_VERSION'), '17\n');
      fs.mkdirSync(path.join(cut, 'base'));
      fs.writeFileSync(path.join(cut, 'base', 'half-written'), 'x');
      const retried = await openPglite(cut, { templateFile });
      const tables = (await retried.db.execute(sql`select count(*)::int as n from clients`)) as unknown as {
        rows: { n: number }[];
      };
      expect(tables.rows[0]?.n).toBe(0);
      await retried.close();
      expect(fs.existsSync(path.join(cut, '.unpacking-template'))).toBe(false);
      fs.rmSync(cut, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

it('lets other work run between the statements of a loop on PGlite', async () => {
  const database = await openPglite();
  try {
    let turns = 0;
    const timer = setInterval(() => {
      turns++;
    }, 0);
    // Each a few milliseconds of PGlite's time; a timer due meanwhile runs between two of them.
    for (let i = 0; i < 30; i++)
      await database.db.execute(sql`select count(*) from generate_series(1, 20000)`);
    clearInterval(timer);
    expect(turns).toBeGreaterThan(0);
  } finally {
    await database.close();
  }
});

it('counts a list up to its cap, and says when it stopped there', async () => {
  const { cappedCount } = await import('./sql');
  const { orgs } = await import('./schema');
  const { db } = database;
  await db.insert(orgs).values(['A', 'B', 'C'].map((name) => ({ name: `Capped ${name}` })));
  const named = db.select({ id: orgs.id }).from(orgs).where(sql`${orgs.name} like 'Capped %'`).$dynamic();
  expect(await cappedCount(db, named, 5)).toEqual({ total: 3, totalCapped: false });
  expect(await cappedCount(db, named, 3)).toEqual({ total: 3, totalCapped: false });
  expect(await cappedCount(db, named, 2)).toEqual({ total: 2, totalCapped: true });
});
