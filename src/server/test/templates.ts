import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder, openPostgres, pgliteTemplateTarball } from '../db/client';

/**
 * Set by the test suites' global setup (./global-setup.ts): a migrated database that each test
 * file copies instead of running every migration again. Unset (a script, a run without the
 * setup), each database is migrated from scratch. Either way the migrations run over the copy, so
 * a template that lacks one is brought up to date rather than trusted.
 */
export const PGLITE_TEMPLATE_ENV = 'PRACTICE_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'PRACTICE_TEST_POSTGRES_TEMPLATE';

/** The migrated PGlite data directory tarball the global setup named, if any. */
export async function pgliteTemplate(): Promise<Blob | undefined> {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  return file && fs.existsSync(file) ? fs.openAsBlob(file) : undefined;
}

export async function createDatabase(url: string, name: string, template?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * Migrates one template database for the run and names it in the environment the test workers
 * inherit; returns the teardown. PostgreSQL's template lives for the run; PGlite's tarball is kept
 * in the temp directory under a hash of the migrations and PGlite's version, so the browser suite
 * after the integration suite (and the next local run) loads it without migrating again.
 */
export async function createTemplates(): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `test_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await createDatabase(url, name);
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
  process.env[PGLITE_TEMPLATE_ENV] = await pgliteTemplateFile();
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
  };
}

const CACHE_DIR = path.join(os.tmpdir(), 'practice-test-templates');

async function pgliteTemplateFile(): Promise<string> {
  const key = templateKey();
  const file = path.join(CACHE_DIR, `pglite-${key}.tar`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Written aside and renamed: a run starting meanwhile never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, await pgliteTemplateTarball());
  fs.renameSync(partial, file);
  // Templates of older migrations are of no further use; one a day old is no other run's either.
  for (const name of fs.readdirSync(CACHE_DIR)) {
    const other = path.join(CACHE_DIR, name);
    if (other !== file && Date.now() - fs.statSync(other).mtimeMs > 86_400_000)
      fs.rmSync(other, { force: true });
  }
  return file;
}

/**
 * Changes with any migration's content, PGlite's version or how the database is made (db/client.ts):
 * each makes a different database.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = path.resolve(migrationsFolder, '../../../../node_modules/@electric-sql/pglite/package.json');
  hash.update(fs.existsSync(pglite) ? fs.readFileSync(pglite) : randomBytes(16));
  hash.update(fs.readFileSync(path.resolve(migrationsFolder, '../client.ts')));
  const walk = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(fs.readFileSync(full));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}
