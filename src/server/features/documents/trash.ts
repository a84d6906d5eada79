import { TRPCError } from '@trpc/server';
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { TRASH_RETENTION_DAYS } from '../../../domain/documents';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { documentFolders, documents, documentVersions } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import type { TStorage } from '../../files/storage';
import { audit } from '../system-log';
import { checkTree, documentNotFound, folderNotFound, liveFolder } from './access';

const DAY_MS = 24 * 60 * 60 * 1000;
const purgeAt = (deletedAt: Date) => new Date(deletedAt.getTime() + TRASH_RETENTION_DAYS * DAY_MS);

/** What was deleted in a tree, newest first, with when it goes for good. */
export async function listTrash(db: TExecutor, scope: TScope, clientId: string | null) {
  await checkTree(db, scope, clientId);
  const inTree = (column: typeof documents.clientId | typeof documentFolders.clientId) =>
    clientId === null ? isNull(column) : eq(column, clientId);
  const [folders, files] = await Promise.all([
    db
      .select({
        id: documentFolders.id,
        name: documentFolders.name,
        deletedAt: documentFolders.deletedAt,
      })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, scope.orgId),
          inTree(documentFolders.clientId),
          isNotNull(documentFolders.deletedAt),
        ),
      )
      .orderBy(desc(documentFolders.deletedAt))
      .limit(500),
    db
      .select({
        id: documents.id,
        name: documents.name,
        size: documents.size,
        deletedAt: documents.deletedAt,
      })
      .from(documents)
      .where(
        and(eq(documents.orgId, scope.orgId), inTree(documents.clientId), isNotNull(documents.deletedAt)),
      )
      .orderBy(desc(documents.deletedAt))
      .limit(500),
  ]);
  const rows = [
    ...folders.map((f) => ({
      kind: 'folder' as const,
      id: f.id,
      name: f.name,
      size: null,
      deletedAt: f.deletedAt as Date,
    })),
    ...files.map((f) => ({
      kind: 'document' as const,
      id: f.id,
      name: f.name,
      size: f.size,
      deletedAt: f.deletedAt as Date,
    })),
  ].sort((a, b) => b.deletedAt.getTime() - a.deletedAt.getTime());
  return rows.map((r) => ({ ...r, purgeAt: purgeAt(r.deletedAt) }));
}

/** Where a restored item goes: its folder if that is live, else the top of its tree. */
async function restoreTarget(tx: TExecutor, scope: TScope, folderId: string | null, clientId: string | null) {
  if (folderId) {
    const live = await liveFolder(tx, scope, folderId).catch(() => null);
    if (live) return live.folder;
  }
  const [root] = await tx
    .select()
    .from(documentFolders)
    .where(
      and(
        eq(documentFolders.orgId, scope.orgId),
        clientId === null ? isNull(documentFolders.clientId) : eq(documentFolders.clientId, clientId),
        isNull(documentFolders.parentId),
      ),
    )
    .limit(1);
  if (!root) throw folderNotFound();
  return root;
}

export async function restoreFromTrash(
  db: TDb,
  scope: TScope,
  input: { kind: 'folder' | 'document'; id: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      if (input.kind === 'folder') {
        const [folder] = await tx
          .select()
          .from(documentFolders)
          .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, input.id)))
          .limit(1);
        if (!folder?.deletedAt || folder.parentId === null) throw folderNotFound();
        await checkTree(tx, scope, folder.clientId).catch(() => {
          throw folderNotFound();
        });
        const target = await restoreTarget(tx, scope, folder.parentId, folder.clientId);
        await tx
          .update(documentFolders)
          .set({ deletedAt: null, parentId: target.id })
          .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folder.id)));
        await audit(tx, actorOf(scope, meta), {
          action: 'documents.folder.restore',
          recordType: 'documentFolder',
          recordId: folder.id,
          summary: `Restored the folder “${folder.name}” from the trash into “${target.name}”`,
        });
        return { kind: input.kind, id: folder.id, folderId: target.id };
      }
      const [doc] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, input.id)))
        .limit(1);
      if (!doc?.deletedAt) throw documentNotFound();
      await checkTree(tx, scope, doc.clientId).catch(() => {
        throw documentNotFound();
      });
      const target = await restoreTarget(tx, scope, doc.folderId, doc.clientId);
      await tx
        .update(documents)
        .set({ deletedAt: null, folderId: target.id })
        .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)));
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.file.restore',
        recordType: 'document',
        recordId: doc.id,
        summary: `Restored the file “${doc.name}” from the trash into “${target.name}”`,
      });
      return { kind: input.kind, id: doc.id, folderId: target.id };
    })
    .catch((error) => {
      if (isUniqueViolation(error)) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: 'Something with this name is already there: rename or move it first, then restore',
        });
      }
      throw error;
    });
}

const PURGE_BATCH = 500;

/**
 * Removes for good what has been in the trash longer than TRASH_RETENTION_DAYS, across firms: the
 * rows first (so no listing can offer a file whose bytes are gone), then the stored objects. Meant
 * for the job queue; each call handles a batch and says whether more remains.
 */
export async function purgeTrash(db: TDb, storage: TStorage, now = new Date()) {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_DAYS * DAY_MS);
  const result = await db.transaction(async (tx) => {
    const folders = await tx
      .select({ orgId: documentFolders.orgId, id: documentFolders.id })
      .from(documentFolders)
      .where(and(isNotNull(documentFolders.deletedAt), lt(documentFolders.deletedAt, cutoff)))
      .limit(PURGE_BATCH);
    // Every folder under a purged one goes with it, and the files in all of them.
    const subtree = folders.length
      ? rowsOf<{ org_id: string; id: string }>(
          await tx.execute(sql`
            with recursive down as (
              select org_id, id from ${documentFolders}
              where (org_id, id) in (${sql.join(
                folders.map((f) => sql`(${f.orgId}::uuid, ${f.id}::uuid)`),
                sql`, `,
              )})
              union
              select f.org_id, f.id from ${documentFolders} f
              join down on f.org_id = down.org_id and f.parent_id = down.id
            )
            select org_id, id from down`),
        )
      : [];
    const folderIds = subtree.map((f) => f.id);
    const docs = await tx
      .select({ orgId: documents.orgId, id: documents.id, name: documents.name })
      .from(documents)
      .where(
        or(
          and(isNotNull(documents.deletedAt), lt(documents.deletedAt, cutoff)),
          folderIds.length ? inArray(documents.folderId, folderIds) : sql`false`,
        ),
      )
      .limit(PURGE_BATCH * 10);
    const docIds = docs.map((d) => d.id);
    const keys = docIds.length
      ? (
          await tx
            .select({ key: documentVersions.storageKey })
            .from(documentVersions)
            .where(inArray(documentVersions.documentId, docIds))
        ).map((v) => v.key)
      : [];
    if (docIds.length) await tx.delete(documents).where(inArray(documents.id, docIds));
    if (folders.length) {
      await tx.delete(documentFolders).where(
        inArray(
          documentFolders.id,
          folders.map((f) => f.id),
        ),
      );
    }
    const perOrg = new Map<string, { files: number; folders: number }>();
    for (const d of docs) {
      const c = perOrg.get(d.orgId) ?? { files: 0, folders: 0 };
      c.files += 1;
      perOrg.set(d.orgId, c);
    }
    for (const f of subtree) {
      const c = perOrg.get(f.org_id) ?? { files: 0, folders: 0 };
      c.folders += 1;
      perOrg.set(f.org_id, c);
    }
    for (const [orgId, c] of perOrg) {
      await audit(
        tx,
        { kind: 'system', orgId },
        {
          action: 'documents.trash.purge',
          recordType: 'document',
          summary: `Removed for good ${c.files} ${c.files === 1 ? 'file' : 'files'} and ${c.folders} ${c.folders === 1 ? 'folder' : 'folders'} that had been in the trash for ${TRASH_RETENTION_DAYS} days`,
        },
      );
    }
    return {
      files: docs.length,
      folders: subtree.length,
      keys,
      more: folders.length === PURGE_BATCH || docs.length === PURGE_BATCH * 10,
    };
  });
  let failed = 0;
  for (const key of result.keys) {
    // An object left behind costs space, never correctness: nothing points at it any more.
    await storage.delete(key).catch(() => {
      failed += 1;
    });
  }
  return {
    files: result.files,
    folders: result.folders,
    objects: result.keys.length - failed,
    more: result.more,
  };
}
