import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type TDatabase } from '../db/client';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by DATABASE_URL (dropped again on close).
 */
export async function createTestDatabase(): Promise<TDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString(), { max: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      try {
        await drop.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await drop.end();
      }
    },
  };
}
