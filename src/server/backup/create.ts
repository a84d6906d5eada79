import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { TConfig } from '../config';
import type { TDatabase, TDb } from '../db/client';
import type { TKeyring } from '../features/vault';
import type { TStorage } from '../files/storage';
import { BackupError } from './archive';
import { copyFiles } from './copy-files';
import {
  databaseFacts,
  FORMAT,
  productVersion,
  type TDatabaseFacts,
  type TManifest,
  vaultPart,
} from './manifest';
import { copyPgliteDir } from './pglite-copy';
import { startBackupWorker, type TBackupWorker } from './worker-client';

export type TBackupResult = {
  file: string;
  manifest: TManifest;
  /** How long each step took, in ms (the log line of a backup says where its time went). */
  steps: Record<string, number>;
};

/** Runs a child to completion, answering its stdout; its stderr goes into the error. */
function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', (error) =>
      reject(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? new BackupError(
              `${command} is not installed on this machine (the PostgreSQL client tools are needed)`,
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new BackupError(`${path.basename(command)} failed (${code}): ${err.trim().slice(-2000)}`)),
    );
  });
}

/** The database's part of the archive under `staging/database`, and what it holds. */
async function snapshotDatabase(
  database: TDatabase,
  staging: string,
  worker: TBackupWorker,
  step: (name: string) => void,
): Promise<TDatabaseFacts & { blockedMs: number }> {
  const target = path.join(staging, 'database');
  if (database.engine === 'pglite') {
    const pglite = database.pglite;
    if (!pglite?.dir) throw new BackupError('An in-memory database cannot be backed up');
    const pgdata = path.join(target, 'pgdata');
    // Between PGlite's two calls the worker copies; then it replays the copy's WAL and reads it.
    const copy = await copyPgliteDir(pglite.client, pglite.dir, pgdata, async (request) => {
      const reply = await worker.call({ op: 'copy', ...request });
      return reply.bytes ?? 0;
    });
    step('copy');
    const { facts } = await worker.call({ op: 'inspect', dir: pgdata });
    step('inspect');
    if (!facts) throw new BackupError('The backup worker did not read the copied database');
    return { ...facts, blockedMs: copy.blockedMs };
  }
  if (!database.url) throw new BackupError('The PostgreSQL connection string is unknown');
  await fs.mkdir(target, { recursive: true, mode: 0o700 });
  // One REPEATABLE READ snapshot, exported so pg_dump reads exactly what the facts are read from.
  // Neither takes more than ACCESS SHARE locks: writes go on, only schema changes wait.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const snapshot = rows[0]?.id ?? '';
    const dump = run('pg_dump', [
      '--format=custom',
      `--snapshot=${snapshot}`,
      `--file=${path.join(target, 'postgres.dump')}`,
      `--dbname=${database.url}`,
    ]);
    const facts = await databaseFacts(drizzle({ client }) as unknown as TDb);
    await dump;
    await client.query('commit');
    step('dump');
    return { ...facts, blockedMs: 0 };
  } finally {
    await client.end();
  }
}

/** The backup under way in this process; an abandoned one is waited for (it ends in moments). */
let running: { work: Promise<unknown>; abandoned: boolean } | null = null;

/**
 * Writes one archive of the instance to `out`: the database at one moment, the stored files that
 * moment names (a file stored later is not named, so not needed), and the manifest. One at a time
 * per process (PGlite has one backup slot per session).
 */
export async function createBackup(deps: {
  database: TDatabase;
  storage: TStorage;
  /**
   * The storage's configuration, when the backup runs in the server: the worker then copies the
   * stored files itself (a firm's documents are most of its bytes), not the server's event loop.
   */
  storageConfig?: TConfig['storage'];
  /** Aborted: the worker is stopped and the backup fails (its asker has gone). */
  signal?: AbortSignal;
  keyring: TKeyring;
  out: string;
}): Promise<TBackupResult> {
  if (running?.abandoned) await running.work.catch(() => {});
  if (running) throw new BackupError('A backup is already running: try again when it has finished');
  const slot = { work: Promise.resolve() as Promise<unknown>, abandoned: deps.signal?.aborted ?? false };
  const work = (async () => {
    const out = path.resolve(deps.out);
    await fs.mkdir(path.dirname(out), { recursive: true });
    const staging = await fs.mkdtemp(path.join(path.dirname(out), '.practice-backup-'));
    const worker = await startBackupWorker().catch(async (error) => {
      await fs.rm(staging, { recursive: true, force: true });
      throw error;
    });
    const abandon = () => {
      slot.abandoned = true;
      worker.close();
    };
    deps.signal?.addEventListener('abort', abandon, { once: true });
    if (deps.signal?.aborted) abandon();
    const steps: Record<string, number> = {};
    let at = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      steps[name] = Math.round(now - at);
      at = now;
    };
    try {
      const facts = await snapshotDatabase(deps.database, staging, worker, step);
      const files = deps.storageConfig
        ? await worker
            .call({ op: 'files', storage: deps.storageConfig, keys: facts.storageKeys, staging })
            .then(({ count = 0, bytes = 0 }) => ({ count, bytes }))
        : await copyFiles(deps.storage, facts.storageKeys, staging);
      step('files');
      const roots = ['database', ...(files.count ? ['files'] : [])];
      // Checksums and the gzipped tar are the worker's too: seconds of CPU the server keeps.
      const { manifest } = await worker.call({
        op: 'pack',
        staging,
        out,
        roots,
        manifest: {
          format: FORMAT,
          formatVersion: 1,
          product: productVersion(),
          createdAt: new Date().toISOString(),
          engine: deps.database.engine,
          migration: facts.migration,
          tables: facts.tables,
          files,
          vault: vaultPart(deps.keyring, facts.keyIds),
          blockedMs: facts.blockedMs,
        },
      });
      if (!manifest) throw new BackupError('The backup worker did not write the archive');
      step('pack');
      return { file: out, manifest, steps };
    } finally {
      deps.signal?.removeEventListener('abort', abandon);
      worker.close();
      await fs.rm(staging, { recursive: true, force: true });
    }
  })();
  slot.work = work;
  running = slot;
  try {
    return await work;
  } finally {
    running = null;
  }
}
