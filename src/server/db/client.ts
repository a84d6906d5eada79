import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDirLock } from './dir-lock';
import * as schema from './schema';

export type TSchema = typeof schema;
/** One type for both engines: the query builder is the same, only the driver differs. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];
/** Anything a data function can run on: the database or an open transaction. */
export type TExecutor = TDb | TTx;

export type TDatabase = {
  db: TDb;
  engine: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
};

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// Two instances starting together on PostgreSQL must not both run the migrations.
const MIGRATION_LOCK_KEY = 7_240_611;

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<TDatabase> {
  // No JIT: our statements are short, and one whose row estimate runs high (a set-based insert of a
  // month of projects) crossed jit_above_cost and spent 3 s compiling for 20 ms of work. A startup
  // option, so it holds before the first query (a pooler must pass or ignore `options`).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, options: '-c jit=off' });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client, casing: 'snake_case' }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as TDb;
  return {
    db,
    engine: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * `dir` undefined opens an in-memory database (tests). `template` is a data directory tarball from
 * `dumpDataDir()` that seeds a database not yet created; the migrations still run over it, so a
 * template missing the newest migration is brought up to date rather than trusted.
 */
export async function openPglite(dir?: string, options: { template?: Blob } = {}): Promise<TDatabase> {
  let release = async () => {};
  if (dir) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    release = acquireDirLock(dir);
  }
  try {
    // Extensions the migrations create must be bundled into PGlite up front.
    const extensions = { pg_trgm, btree_gin };
    const fresh = !dir || !fs.existsSync(path.join(dir, 'PG_VERSION'));
    const loadDataDir = fresh ? options.template : undefined;
    const client = dir
      ? await PGlite.create(dir, { extensions, loadDataDir })
      : await PGlite.create({ extensions, loadDataDir });
    const db = drizzlePglite({ client, schema, casing: 'snake_case' });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as TDb,
      engine: 'pglite',
      async ping() {
        await client.query('select 1');
      },
      async close() {
        // close() flushes PGlite's files: everything acknowledged is on disk after it.
        await client.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

export function openDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<TDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(path.join(config.dataDir, 'db'));
}
