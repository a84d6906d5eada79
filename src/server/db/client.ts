import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { migrationsFolder } from '../paths';
import { acquireDirLock } from './dir-lock';
import type * as schema from './schema';

export type TSchema = typeof schema;
/** One type for both engines: the query builder is the same, only the driver differs. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];
/** Anything a data function can run on: the database or an open transaction. */
export type TExecutor = TDb | TTx;

export type TDatabase = {
  db: TDb;
  engine: 'pglite' | 'postgres';
  /** PGlite only: the engine itself and its data directory (none in memory), for backups. */
  pglite?: { client: PGlite; dir?: string };
  /** PostgreSQL only: the connection string, for backups (pg_dump). */
  url?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on a channel: `onMessage` gets each committed NOTIFY's payload. On PostgreSQL this is a
   * connection of its own: `onLost` says it dropped (notifications may have been missed) and
   * `onListening` that it listens again after a reconnect. Resolves once listening; the function it
   * resolves to stops.
   */
  listen(
    channel: string,
    handlers: { onMessage(payload: string): void; onLost(): void; onListening(): void },
  ): Promise<() => Promise<void>>;
};

/** How long a lost LISTEN connection waits before connecting again. */
const RELISTEN_MS = 2_000;

export { migrationsFolder };

// Two instances starting together on PostgreSQL must not both run the migrations.
const MIGRATION_LOCK_KEY = 7_240_611;

export type TPoolOptions = {
  /** Connections the pool may open (DATABASE_POOL_MAX); LISTEN holds one more. */
  max?: number;
  /** Cancel a statement running longer (DATABASE_STATEMENT_TIMEOUT_MS); 0 or unset: never. */
  statementTimeoutMs?: number;
};

/** The session settings every connection starts with, as libpq's `options`. */
export function startupOptions(options: TPoolOptions): string {
  // No JIT: our statements are short, and one whose row estimate runs high (a set-based insert of a
  // month of projects) crossed jit_above_cost and spent 3 s compiling for 20 ms of work. A startup
  // option, so it holds before the first query: a pooler in front (PgBouncer) must pass it on or be
  // configured with jit=off itself (README "Running several instances").
  const settings = ['-c jit=off'];
  if (options.statementTimeoutMs) settings.push(`-c statement_timeout=${options.statementTimeoutMs}`);
  return settings.join(' ');
}

export async function openPostgres(url: string, options: TPoolOptions = {}): Promise<TDatabase> {
  // The PostgreSQL driver is loaded only here: a PGlite start does not wait for it.
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }, schema] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
    import('./schema'),
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: startupOptions(options),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const client = await pool.connect();
  try {
    // A migration may rightly run longer than any request's statement.
    await client.query('set statement_timeout = 0');
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client, casing: 'snake_case' }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.query('reset statement_timeout').catch(() => {});
    client.release();
  }
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as TDb;
  return {
    db,
    engine: 'postgres',
    url,
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
    async listen(channel, handlers) {
      let stopped = false;
      let current: pg.Client | null = null;
      let timer: NodeJS.Timeout | undefined;
      const connect = async () => {
        const client = new pg.Client({ connectionString: url });
        client.on('notification', (msg) => {
          if (msg.channel === channel) handlers.onMessage(msg.payload ?? '');
        });
        const lost = () => {
          if (current !== client) return;
          current = null;
          client.removeAllListeners('end');
          client.end().catch(() => {});
          if (stopped) return;
          handlers.onLost();
          timer = setTimeout(() => {
            connect().then(handlers.onListening, lost);
          }, RELISTEN_MS);
        };
        client.on('error', lost);
        client.on('end', lost);
        current = client;
        await client.connect();
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      };
      await connect();
      return async () => {
        stopped = true;
        clearTimeout(timer);
        const client = current;
        current = null;
        await client?.end().catch(() => {});
      };
    },
  };
}

/**
 * PGlite and the schema, loaded at the first open rather than with this module: at a server's start
 * they load while a new data directory is unpacked (main.ts imports this module statically).
 */
function pgliteModules() {
  return Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('./schema'),
  ]);
}

/**
 * How initdb makes a new PGlite cluster: 1 MB WAL segments rather than 16 MB, so a data directory
 * unpacked from the template writes 7 MB of WAL where it wrote a mostly empty 16 MB segment (a
 * quarter of a first start's writing). The segment size is fixed per cluster; directories made
 * before keep theirs. `WAL_SIZES` keeps checkpoints as far apart as the 16 MB default had them.
 */
const INITDB_PARAMS = ['--wal-segsize=1'];
const WAL_SIZES = ["min_wal_size = '80MB'", "max_wal_size = '1GB'"];

/**
 * `dir` undefined opens an in-memory database (tests). `template` is a data directory tarball from
 * `pgliteTemplateTarball()` that seeds a database not yet created; the migrations still run over
 * it, so a template missing the newest migration is brought up to date rather than trusted.
 */
export async function openPglite(
  dir?: string,
  options: { template?: Blob; templateFile?: string } = {},
): Promise<TDatabase> {
  const modules = pgliteModules();
  modules.catch(() => {});
  let release = async () => {};
  if (dir) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    release = acquireDirLock(dir);
  }
  try {
    // A directory is made once PG_VERSION is there, unless unpacking the template into it was cut
    // short (its marker is still there): then it is unpacked again.
    let fresh =
      !dir || !fs.existsSync(path.join(dir, 'PG_VERSION')) || fs.existsSync(path.join(dir, UNPACKING));
    if (dir && fresh && options.templateFile && fs.existsSync(options.templateFile)) {
      await extractTemplate(options.templateFile, dir);
      fresh = false;
    }
    const [{ PGlite }, { btree_gin }, { pg_trgm }, { drizzle }, { migrate }, schema] = await modules;
    const loadDataDir = fresh ? options.template : undefined;
    // Extensions the migrations create must be bundled into PGlite up front.
    const settings = {
      extensions: { pg_trgm, btree_gin },
      loadDataDir,
      ...(fresh && !loadDataDir ? { initDbStartParams: INITDB_PARAMS } : {}),
    };
    const client = dir ? await PGlite.create(dir, settings) : await PGlite.create(settings);
    yieldBeforeEachQuery(client);
    if (fresh && !loadDataDir) {
      // In postgresql.auto.conf: from the next start on, and in every copy of the template.
      for (const setting of WAL_SIZES) await client.exec(`alter system set ${setting}`);
    }
    const db = drizzle({ client, schema, casing: 'snake_case' });
    await migrate(db, { migrationsFolder });
    return {
      db: db as unknown as TDb,
      engine: 'pglite',
      pglite: { client, dir },
      async ping() {
        await client.query('select 1');
      },
      async close() {
        // close() flushes PGlite's files: everything acknowledged is on disk after it.
        await client.close();
        await release();
      },
      // One process owns the database, so its notifications never go missing.
      async listen(channel, handlers) {
        const stop = await client.listen(channel, handlers.onMessage);
        return async () => {
          if (!client.closed) await stop();
        };
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * PGlite runs each statement on this thread, and its promises settle without an I/O turn: a request
 * awaiting statement after statement (an export's pages, a batch job) kept every other request,
 * timer and socket waiting until its last one, seconds for a large firm's export. Before each
 * statement the event loop now gets a turn, so other requests' statements run between them.
 * (A transaction's own statements go through it, not through query(): it stays whole.)
 */
function yieldBeforeEachQuery(client: PGlite): void {
  const query = client.query.bind(client);
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    if (pgliteTurns) await new Promise<void>((resolve) => setImmediate(resolve));
    return query(...args);
  }) as PGlite['query'];
}

let pgliteTurns = true;

/** Only for bench/run.ts --compare-turns, which measures the same server with and without the turn. */
export function setPgliteTurns(on: boolean): void {
  pgliteTurns = on;
}

/**
 * A new, migrated, empty PGlite database as an uncompressed data directory tarball: what the build
 * leaves beside the server and the test suites copy. Uncompressed, as unpacking it is on the path
 * of a first start; after a checkpoint, so opening it replays no WAL.
 */
export async function pgliteTemplateTarball(): Promise<Buffer> {
  const database = await openPglite();
  try {
    const client = database.pglite?.client as PGlite;
    // The checkpoint removes the WAL segments before it rather than keeping them renamed for later
    // (five more megabytes that every new data directory would write).
    await client.exec('set wal_recycle = off');
    await client.exec('checkpoint');
    return Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  } finally {
    await database.close();
  }
}

/** Present while a template is being unpacked into a data directory. */
const UNPACKING = '.unpacking-template';

/**
 * Unpacks a template tarball into a new data directory, here rather than through PGlite's
 * loadDataDir: tar's synchronous extraction takes about 0.25 s where PGlite's virtual file system
 * took 1.5 s, most of a first start. In a worker thread, so the server's modules go on loading
 * meanwhile. A marker file stands while it runs: a start cut short leaves a directory that the
 * next start unpacks again rather than opens.
 */
async function extractTemplate(file: string, dir: string): Promise<void> {
  const marker = path.join(dir, UNPACKING);
  fs.writeFileSync(marker, '');
  const tarModule = createRequire(import.meta.url).resolve('tar');
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(EXTRACT_TEMPLATE, { eval: true, workerData: { tarModule, file, dir } });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`unpacking ${file} into ${dir} stopped with ${code}`)),
    );
  });
  fs.rmSync(marker);
}

const EXTRACT_TEMPLATE = `
const { workerData } = require('node:worker_threads');
require(workerData.tarModule).extract({ file: workerData.file, cwd: workerData.dir, sync: true });
`;

/** `pgliteTemplate`: a tarball file to start a new PGlite data directory from (see openPglite). */
export function openDatabase(
  config: { databaseUrl?: string; dataDir: string; pool?: TPoolOptions },
  options: { pgliteTemplate?: string } = {},
): Promise<TDatabase> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.pool)
    : openPglite(path.join(config.dataDir, 'db'), { templateFile: options.pgliteTemplate });
}
