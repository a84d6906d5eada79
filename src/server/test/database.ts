import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, type TDatabase } from '../db/client';

/**
 * Set by the test suites' global setup (src/server/test/global-setup.ts): a migrated database that
 * each test file copies instead of running every migration again. Unset (a script, a lone file run
 * without the setup), each database is migrated from scratch as before.
 */
export const PGLITE_TEMPLATE_ENV = 'PRACTICE_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'PRACTICE_TEST_POSTGRES_TEMPLATE';

/** The migrated PGlite data directory tarball the global setup wrote, if any. */
export async function pgliteTemplate(): Promise<Blob | undefined> {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  return file && fs.existsSync(file) ? fs.openAsBlob(file) : undefined;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by DATABASE_URL (dropped again on close).
 */
export async function createTestDatabase(): Promise<TDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite(undefined, { template: await pgliteTemplate() });
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  // Migrates what the template lacks (nothing, normally): one query against the journal.
  const database = await openPostgres(target.toString(), { max: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(url, name);
    },
  };
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const drop = new pg.Client({ connectionString: url });
  await drop.connect();
  try {
    await drop.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await drop.end();
  }
}

/**
 * Migrates one template database for the whole run and says where it is (environment variables the
 * test workers inherit); returns the teardown that removes it.
 */
export async function createTemplates(engines: { postgres: boolean }): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url && engines.postgres) {
    const name = `test_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    const target = new URL(url);
    target.pathname = `/${name}`;
    // No connection may stay open: PostgreSQL copies a template only while nobody is connected.
    await (await openPostgres(target.toString(), { max: 1 })).close();
    process.env[POSTGRES_TEMPLATE_ENV] = name;
    return async () => {
      delete process.env[POSTGRES_TEMPLATE_ENV];
      await dropDatabase(url, name);
    };
  }
  const database = await openPglite();
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-template-'));
  const file = path.join(scratchDir, 'pglite-template.tar');
  try {
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    // Uncompressed: nothing to inflate in every file's setup; the file is removed after the run.
    const tarball = await client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await database.close();
  }
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    fs.rmSync(scratchDir, { recursive: true, force: true });
  };
}
