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
import { migrationsFolder } from '../db/client';
import { createDatabase, dropDatabase } from './templates';

// A data migration's test: a database migrated up to just before it, rows the old schema or the
// old code left, then the migration itself. PGlite by default, PostgreSQL with DATABASE_URL.

/** The migrations folder as it was before `migration` (the journal cut before it); the caller removes it. */
export function migrationsBefore(migration: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-migrations-'));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === migration);
  if (at < 1) throw new Error(`no migration ${migration} after the first`);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

export type TMigrationTarget = {
  run(query: string): Promise<Record<string, unknown>[]>;
  /** Several statements at once. */
  exec(script: string): Promise<void>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
};

/** An empty database of its own. */
export async function openMigrationTarget(): Promise<TMigrationTarget> {
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
  const name = `test_mig_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
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
