import { TRPCError } from '@trpc/server';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { FIRM_EXPORT_DAYS, type TStartFirmExport, ZStartFirmExport } from '../../../domain/firm-export';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { firmExports } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { confirmOwnPassword } from '../../idp/account-deletion';
import { enqueue } from '../../jobs/queue';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { secretBox } from '../vault';

export const FIRM_EXPORT_JOB = 'firmExport.build';
export const FIRM_EXPORT_EXPIRE_JOB = 'firmExport.expire';
const DAY_MS = 24 * 60 * 60_000;
const PASSPHRASE_CONTEXT = 'firm-export.passphrase';
/** How many exports the page lists: the recent ones (older ones have expired anyway). */
const LIST_LIMIT = 10;

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Export not found' });

/** Everything of the firm, the vault's passwords included: the owner's alone. */
export function requireOwner(scope: TScope) {
  if (!scope.isOwner)
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Only the firm’s owner can export the firm’s data' });
}

/**
 * Queues an export. With the vault, the owner's password is checked first (each wrong try counts
 * toward the sign-in lock, as elsewhere) and the passphrase is kept sealed by the vault's master key
 * only until the job has used it. One export at a time per firm.
 */
export async function startFirmExport(
  db: TDb,
  config: TConfig,
  who: { sub: string; scope: TScope },
  input: TStartFirmExport,
  meta: TRequestMeta,
) {
  const { scope } = who;
  requireOwner(scope);
  const data = ZStartFirmExport.parse(input);
  let passphraseSealed: string | null = null;
  if (data.includeVault) {
    if (config.idp.mode !== 'embedded') {
      throw new TRPCError({
        code: 'PRECONDITION_FAILED',
        message: 'Your password is checked by your firm’s identity provider: export without the vault',
      });
    }
    const checked = await confirmOwnPassword(db, who.sub, data.password);
    if (checked === 'locked')
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many wrong passwords: try again later',
      });
    if (checked !== 'ok') throw new TRPCError({ code: 'BAD_REQUEST', message: 'The password is not right' });
    passphraseSealed = await secretBox(config, db).seal(data.passphrase, PASSPHRASE_CONTEXT);
  }
  return db.transaction(async (tx) => {
    const [running] = await tx
      .select({ id: firmExports.id })
      .from(firmExports)
      .where(and(eq(firmExports.orgId, scope.orgId), inArray(firmExports.status, ['queued', 'running'])))
      .limit(1);
    if (running)
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'An export is already being prepared: wait for it to finish',
      });
    const [row] = await tx
      .insert(firmExports)
      .values({
        orgId: scope.orgId,
        requestedBy: scope.memberId,
        includeVault: data.includeVault,
        passphraseSealed,
        step: 'Waiting to start',
      })
      .returning({ id: firmExports.id });
    if (!row) throw new Error('The export row was not written');
    await enqueue(tx, FIRM_EXPORT_JOB, { exportId: row.id }, { orgId: scope.orgId, maxAttempts: 3 });
    await audit(tx, actorOf(scope, meta), {
      action: data.includeVault ? 'firm.export.start_with_vault' : 'firm.export.start',
      recordType: 'firmExport',
      recordId: row.id,
      summary: data.includeVault
        ? 'Started an export of all the firm’s data, with the vault’s passwords (encrypted with a passphrase)'
        : 'Started an export of all the firm’s data',
    });
    return { id: row.id };
  });
}

const listColumns = {
  id: firmExports.id,
  status: firmExports.status,
  includeVault: firmExports.includeVault,
  step: firmExports.step,
  done: firmExports.done,
  total: firmExports.total,
  size: firmExports.size,
  error: firmExports.error,
  createdAt: firmExports.createdAt,
  finishedAt: firmExports.finishedAt,
  expiresAt: firmExports.expiresAt,
};

export async function listFirmExports(db: TExecutor, scope: TScope) {
  requireOwner(scope);
  return db
    .select(listColumns)
    .from(firmExports)
    .where(eq(firmExports.orgId, scope.orgId))
    .orderBy(desc(firmExports.createdAt))
    .limit(LIST_LIMIT);
}

/** A finished, unexpired export of the caller's firm, for its owner; anything else is NOT_FOUND. */
export async function downloadableExport(db: TExecutor, scope: TScope, exportId: string) {
  requireOwner(scope);
  const [row] = await db
    .select()
    .from(firmExports)
    .where(and(eq(firmExports.orgId, scope.orgId), eq(firmExports.id, exportId)))
    .limit(1);
  if (row?.status !== 'ready' || !row.storageKey || !row.expiresAt || row.expiresAt <= new Date())
    throw notFound();
  return { ...row, storageKey: row.storageKey };
}

export async function logExportDownload(db: TDb, scope: TScope, exportId: string, meta: TRequestMeta) {
  await db.transaction((tx) =>
    audit(tx, actorOf(scope, meta), {
      action: 'firm.export.download',
      recordType: 'firmExport',
      recordId: exportId,
      summary: 'Downloaded the export of all the firm’s data',
    }),
  );
}

/** The job's side: the passphrase unsealed (once), the row marked running. */
export async function claimExport(db: TDb, config: TConfig, exportId: string) {
  const [row] = await db.select().from(firmExports).where(eq(firmExports.id, exportId)).limit(1);
  if (!row || (row.status !== 'queued' && row.status !== 'running')) return null;
  await db
    .update(firmExports)
    .set({ status: 'running', step: 'Starting', done: 0 })
    .where(eq(firmExports.id, exportId));
  const passphrase = row.passphraseSealed
    ? await secretBox(config, db).open(row.passphraseSealed, PASSPHRASE_CONTEXT)
    : null;
  return { ...row, passphrase };
}

export async function finishExport(
  db: TDb,
  row: { id: string; orgId: string; requestedBy: string | null },
  result: { storageKey: string; size: number; files: number },
  now = new Date(),
) {
  const expiresAt = new Date(now.getTime() + FIRM_EXPORT_DAYS * DAY_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(firmExports)
      .set({
        status: 'ready',
        step: null,
        done: sql`${firmExports.total}`,
        storageKey: result.storageKey,
        size: result.size,
        passphraseSealed: null,
        finishedAt: now,
        expiresAt,
      })
      .where(eq(firmExports.id, row.id));
    await audit(
      tx,
      { kind: 'system', orgId: row.orgId },
      {
        action: 'firm.export.ready',
        recordType: 'firmExport',
        recordId: row.id,
        summary: `The export of all the firm’s data is ready (${result.files} ${result.files === 1 ? 'document' : 'documents'}); it can be downloaded for ${FIRM_EXPORT_DAYS} days`,
      },
    );
    if (row.requestedBy)
      await notify(tx, {
        orgId: row.orgId,
        memberIds: [row.requestedBy],
        kind: 'firm.export',
        title: 'Your firm’s export is ready',
        body: `Download it from Firm settings within ${FIRM_EXPORT_DAYS} days.`,
        link: '/admin/settings/org',
      });
  });
}

export async function failExport(db: TDb, exportId: string, error: string) {
  const [row] = await db
    .update(firmExports)
    .set({
      status: 'failed',
      step: null,
      passphraseSealed: null,
      error: error.slice(0, 500),
      finishedAt: new Date(),
    })
    .where(eq(firmExports.id, exportId))
    .returning({ orgId: firmExports.orgId, requestedBy: firmExports.requestedBy });
  if (!row) return;
  await db.transaction(async (tx) => {
    await audit(
      tx,
      { kind: 'system', orgId: row.orgId },
      {
        action: 'firm.export.failed',
        recordType: 'firmExport',
        recordId: exportId,
        summary: 'The export of all the firm’s data failed',
      },
    );
    if (row.requestedBy)
      await notify(tx, {
        orgId: row.orgId,
        memberIds: [row.requestedBy],
        kind: 'firm.export',
        title: 'Your firm’s export failed',
        body: 'Start it again from Firm settings.',
        link: '/admin/settings/org',
      });
  });
}

/** Exports past their days: the file goes, the row stays (as expired) for the history. */
export async function expireFirmExports(db: TDb, storage: TStorage, now: Date) {
  const due = await db
    .select({ id: firmExports.id, orgId: firmExports.orgId, storageKey: firmExports.storageKey })
    .from(firmExports)
    .where(and(eq(firmExports.status, 'ready'), lte(firmExports.expiresAt, now)))
    .orderBy(asc(firmExports.expiresAt))
    .limit(100);
  for (const row of due) {
    if (row.storageKey) await storage.delete(row.storageKey);
    await db.transaction(async (tx) => {
      await tx
        .update(firmExports)
        .set({ status: 'expired', storageKey: null })
        .where(eq(firmExports.id, row.id));
      await audit(
        tx,
        { kind: 'system', orgId: row.orgId },
        {
          action: 'firm.export.expired',
          recordType: 'firmExport',
          recordId: row.id,
          summary: `The export of all the firm’s data was removed after ${FIRM_EXPORT_DAYS} days`,
        },
      );
    });
  }
  return { expired: due.length, more: due.length === 100 };
}
