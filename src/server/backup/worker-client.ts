import { spawn } from 'node:child_process';
import os from 'node:os';
import type { TConfig } from '../config';
import { entryArgs, projectRoot } from '../paths';
import { BackupError } from './archive';
import type { TDatabaseFacts, TManifest } from './manifest';

export type TWorkerRequest =
  | { op: 'ping' }
  /** Copies the tree `rel` of `from` into `to`; `label` (pg_backup_stop's) is written first. */
  | { op: 'copy'; from: string; to: string; rel: string; skipWal: boolean; label?: string }
  | { op: 'inspect'; dir: string }
  | { op: 'files'; storage: TConfig['storage']; keys: TDatabaseFacts['storageKeys']; staging: string }
  | { op: 'pack'; staging: string; out: string; roots: string[]; manifest: Omit<TManifest, 'members'> };

export type TWorkerReply =
  | { ok: true; bytes?: number; count?: number; facts?: TDatabaseFacts; manifest?: TManifest }
  | { ok: false; message: string };

/**
 * A little below the server's priority: when the cores are busy, requests come first. Only a
 * little: at 10 a backup on a machine kept busy by other work got next to no CPU and ran for many
 * minutes; at 5 it still has about a third of a normal process's share, so it ends.
 */
const NICENESS = 5;

export type TBackupWorker = {
  call(request: TWorkerRequest): Promise<Extract<TWorkerReply, { ok: true }>>;
  close(): void;
};

/** Starts the backup worker (worker.ts) and answers once it is ready for requests. */
export async function startBackupWorker(): Promise<TBackupWorker> {
  const child = spawn(process.execPath, entryArgs('backup-worker', 'src/server/backup/worker.ts'), {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  try {
    if (child.pid) os.setPriority(child.pid, NICENESS);
  } catch {
    // Not permitted here (a container's policy): it runs at the server's priority.
  }
  let pending: { resolve(reply: TWorkerReply): void; reject(error: Error): void } | null = null;
  let ended: Error | null = null;
  const end = (error: Error) => {
    ended ??= error;
    pending?.reject(ended);
    pending = null;
  };
  child.on('message', (reply: TWorkerReply) => {
    const waiting = pending;
    pending = null;
    waiting?.resolve(reply);
  });
  child.on('error', (error) => end(new BackupError(`The backup worker could not start: ${error.message}`)));
  child.on('exit', (code, signal) =>
    end(new BackupError(`The backup worker stopped (${signal ?? code}): ${stderr.trim().slice(-2000)}`)),
  );
  const worker: TBackupWorker = {
    call: (request) =>
      new Promise<TWorkerReply>((resolve, reject) => {
        if (ended) return reject(ended);
        pending = { resolve, reject };
        child.send(request);
      }).then((reply) => {
        if (!reply.ok) throw new BackupError(reply.message);
        return reply;
      }),
    close: () => {
      if (child.connected) child.disconnect();
      if (child.exitCode === null) child.kill();
    },
  };
  try {
    await worker.call({ op: 'ping' });
  } catch (error) {
    worker.close();
    throw error;
  }
  return worker;
}
