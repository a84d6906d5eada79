import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { TConfig } from '../config';
import type { TDatabase, TDb } from '../db/client';
import { members, orgs } from '../db/schema';
import { notify } from '../features/notifications';
import { audit } from '../features/system-log';
import { vaultKeyring } from '../features/vault';
import type { TStorage } from '../files/storage';
import { every, PermanentJobError, registerJob } from '../jobs/registry';
import { createBackup } from './create';

export const BACKUP_SCHEDULED = 'backup.scheduled';
const NAME = /^practice-\d{8}T\d{6}Z\.tar\.gz$/;

/** `practice-20261124T163000Z.tar.gz`: sorts by time, and only such names are ever pruned. */
export const scheduledName = (now: Date) =>
  `practice-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;

/** How often the scheduler looks whether a backup is due. */
export const BACKUP_CHECK_MS = 60 * 60_000;
/**
 * A server up for less than this makes no scheduled backup: a start (a restart, a test's server)
 * is not held up by one, nor its stop waiting for one; the next hourly look takes it.
 */
const SETTLE_MS = 10 * 60_000;

/** When the newest scheduled archive in `dir` was made (null: none yet). */
async function newestBackup(dir: string): Promise<Date | null> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const newest = names
    .filter((n) => NAME.test(n))
    .sort()
    .at(-1);
  if (!newest) return null;
  const [, y, mo, d, h, mi, se] = /^practice-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(newest) ?? [];
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se)));
}

/** Keeps the newest `keep` scheduled archives in `dir`; anything else there is left alone. */
export async function pruneBackups(dir: string, keep: number) {
  const names = (await fs.readdir(dir)).filter((n) => NAME.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  await Promise.all(old.map((n) => fs.rm(path.join(dir, n), { force: true })));
  return old;
}

/**
 * The instance's backup is every firm's: each firm's owner hears of a failure, in the app and by
 * mail, and its system log says so.
 */
export async function notifyBackupFailed(db: TDb, message: string) {
  const owners = await db
    .select({ orgId: members.orgId, memberId: members.id })
    .from(members)
    .innerJoin(orgs, eq(orgs.id, members.orgId))
    .where(and(eq(members.isOwner, true), eq(members.status, 'active')));
  for (const owner of owners) {
    await db.transaction(async (tx) => {
      await audit(
        tx,
        { kind: 'system', orgId: owner.orgId },
        {
          action: 'backup.failed',
          recordType: 'backup',
          summary: `The scheduled backup failed: ${message}`.slice(0, 2000),
        },
      );
      await notify(tx, {
        orgId: owner.orgId,
        memberIds: [owner.memberId],
        kind: 'backup.failed',
        title: 'The scheduled backup failed',
        body: message.slice(0, 2000),
      });
    });
  }
}

/** Scheduled backups of the embedded database (PostgreSQL is backed up with its own tools). */
export function registerBackupJob(deps: { config: TConfig; database: TDatabase; storage: TStorage }) {
  const { config, database, storage } = deps;
  if (database.engine !== 'pglite' || !database.pglite?.dir || config.backup.intervalHours === 0) return;
  registerJob(BACKUP_SCHEDULED, async (_job, ctx) => {
    try {
      const newest = await newestBackup(config.backup.dir);
      const intervalMs = config.backup.intervalHours * 60 * 60_000;
      if (newest && Date.now() - newest.getTime() < intervalMs - BACKUP_CHECK_MS / 2) return;
      if (process.uptime() * 1000 < SETTLE_MS) return;
      const keyring = await vaultKeyring(config);
      const out = path.join(config.backup.dir, scheduledName(new Date()));
      const { manifest, steps } = await createBackup({
        database,
        storage,
        storageConfig: config.storage,
        keyring,
        out,
      });
      const pruned = await pruneBackups(config.backup.dir, config.backup.keep);
      ctx.log.info(
        { file: out, blockedMs: manifest.blockedMs, files: manifest.files, steps, pruned },
        'scheduled backup written',
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await notifyBackupFailed(ctx.db, message);
      // The next interval tries again; retrying at once would repeat the notice.
      throw new PermanentJobError(message);
    }
  });
  every(BACKUP_SCHEDULED, BACKUP_CHECK_MS);
}
