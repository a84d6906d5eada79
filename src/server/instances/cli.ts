// `npm run instances`: the server instances sharing DATABASE_URL, as their heartbeats say, and the
// settings the deployment recorded (README "Running several instances").

import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ConfigError } from '../config';
import type { TDb } from '../db/client';
import { deploymentSettings } from '../db/schema';
import { listInstances } from './membership';

async function main() {
  // Only the database is needed: not the instances' secrets (VAULT_KEYS), which an operator's
  // shell need not hold.
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      'npm run instances: set DATABASE_URL (embedded PGlite runs one instance, the one using DATA_DIR)',
    );
  }
  // A plain connection, not openPostgres: reading must never apply migrations (in a rolling upgrade
  // the operator's checkout may be newer than the instances).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const db = drizzle({ client: pool, casing: 'snake_case' }) as unknown as TDb;
  try {
    const rows = await listInstances(db);
    const settings = await db.select().from(deploymentSettings).orderBy(deploymentSettings.name);
    console.log('Deployment settings (vault keys by fingerprint, never the key):');
    for (const s of settings)
      console.log(`  ${s.name} = ${s.value}  (recorded ${s.recordedAt.toISOString()})`);
    console.log(`\nInstances (${rows.filter((r) => r.live).length} live):`);
    const table = rows.map((r) => ({
      state: r.live ? 'live' : r.stoppedAt ? 'stopped' : 'gone',
      host: r.host,
      pid: r.pid,
      listen: r.listen,
      version: r.version,
      storage:
        r.storageDriver === 'local'
          ? `local ${r.filesDir}${r.filesShared ? ' (shared)' : ''}`
          : r.storageDriver,
      jobs: r.jobsEnabled ? 'on' : 'off',
      started: r.startedAt.toISOString(),
      'last seen': r.lastSeenAt.toISOString(),
    }));
    if (table.length) console.table(table);
    else console.log('  none has started on this database yet');
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  if ((error as { cause?: { code?: string } }).cause?.code === '42P01') {
    console.error('No instance of this version has started on this database yet (its tables are missing).');
    process.exit(1);
  }
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
