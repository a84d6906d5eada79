import fs from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

// PGlite is one session on one thread: every query waits for whatever holds it. A logical read
// (pg_dump, or SELECTs in a REPEATABLE READ transaction) holds it for the whole read (10.8 s for
// 300k rows here), `dumpDataDir` for a tar of the whole directory (0.5 s for 44 MB, 2.2 s for
// 300 MB), and even a copy of only what changed, taken while holding it, grows with the busiest
// table's file. So the copy is PostgreSQL's own online base backup: pg_backup_start (a checkpoint,
// and full-page images in the WAL from then on), a copy of the files while requests go on (torn
// pages are repaired from those images), pg_backup_stop (its backup_label goes into the copy), then
// the WAL. Opening the copy replays that WAL to a consistent moment. Only the two calls hold PGlite.

/** The server's lock and PostgreSQL's own (its pid inside WASM would look alive): never copied. */
const SKIP = new Set(['.practice.lock', 'postmaster.pid', 'postmaster.opts', 'backup_label']);
const WAL = 'pg_wal';

/** Runs `work` over `items`, a few at a time (the copy is I/O: one at a time leaves the disk idle). */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Every directory and file under `rel` (relative paths), directories first. */
async function listTree(root: string, rel: string, skipWal: boolean, dirs: string[], files: string[]) {
  dirs.push(rel);
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch((error) => {
    // A directory PostgreSQL removed meanwhile (a dropped relation's): replay recreates what counts.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      // Empty ones too: PostgreSQL refuses to start without pg_tblspc, pg_notify, …
      if (skipWal && name === WAL) dirs.push(name);
      else await listTree(root, name, skipWal, dirs, files);
    } else if (entry.isFile() && !SKIP.has(name)) files.push(name);
  }
}

/** Copies the tree `rel` of `from` into `to` (the WAL directory left empty when `skipWal`). */
export async function copyTree(from: string, to: string, rel: string, skipWal: boolean): Promise<number> {
  const dirs: string[] = [];
  const files: string[] = [];
  await listTree(from, rel, skipWal, dirs, files);
  for (const dir of dirs) await fs.mkdir(path.join(to, dir), { recursive: true, mode: 0o700 });
  let bytes = 0;
  // Two at a time: one at a time leaves the disk idle, more only queue on libuv's four threads.
  await eachLimited(files, 2, async (name) => {
    try {
      await fs.copyFile(path.join(from, name), path.join(to, name));
      bytes += (await fs.stat(path.join(to, name))).size;
    } catch (error) {
      // Removed since it was listed: the WAL replay does not need it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  });
  return bytes;
}

export type TPgliteCopy = {
  /** How long PGlite was held, in ms (pg_backup_start's checkpoint, and pg_backup_stop). */
  blockedMs: number;
  bytes: number;
};

/** Who copies: this process, or the backup worker (worker.ts) that keeps it off the server's loop. */
export type TCopier = (request: {
  from: string;
  to: string;
  rel: string;
  skipWal: boolean;
  label?: string;
}) => Promise<number>;

const copyHere: TCopier = async ({ from, to, rel, skipWal, label }) => {
  if (label !== undefined) await fs.writeFile(path.join(to, 'backup_label'), label, { mode: 0o600 });
  return copyTree(from, to, rel, skipWal);
};

/** Copies the data directory `client` has open into `target`, to be opened (replayed) after. */
export async function copyPgliteDir(
  client: PGlite,
  dir: string,
  target: string,
  copy: TCopier = copyHere,
): Promise<TPgliteCopy> {
  let t = performance.now();
  await client.query(`select pg_backup_start('practice-backup', true)`);
  let blockedMs = performance.now() - t;
  let bytes: number;
  let label: string | undefined;
  try {
    bytes = await copy({ from: dir, to: target, rel: '', skipWal: true });
  } finally {
    t = performance.now();
    const stop = await client.query<{ labelfile: string }>('select labelfile from pg_backup_stop(false)');
    blockedMs += performance.now() - t;
    label = stop.rows[0]?.labelfile;
  }
  // After the stop, so every record up to it is in the copy.
  bytes += await copy({ from: dir, to: target, rel: WAL, skipWal: false, label });
  return { blockedMs: Math.round(blockedMs), bytes };
}
