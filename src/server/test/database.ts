import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type TDatabase } from '../db/client';
import { createDatabase, dropDatabase, POSTGRES_TEMPLATE_ENV, pgliteTemplate } from './templates';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by DATABASE_URL (dropped again on close). Both copy the run's
 * template when the global setup made one (./templates.ts).
 */
export async function createTestDatabase(): Promise<TDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite(undefined, { template: await pgliteTemplate() });
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await createDatabase(url, name, process.env[POSTGRES_TEMPLATE_ENV]);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString(), { max: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(url, name);
    },
  };
}
