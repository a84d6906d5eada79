import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZPortalFolderInput } from '../../../domain/client-portal';
import { portalActorOf, type TPortalClientAccess, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { documentFolders, documents, documentVersions, taskAttachments } from '../../db/schema';
import { ensureTree, storeVersion, type TStoredUpload } from '../documents';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import {
  folderNotFound,
  portalDocument,
  portalFolder,
  portalRoot,
  portalTask,
  visibleDocument,
  visibleFolderIds,
  whoActs,
} from './access';
import { portalAudience } from './audience';

const fileColumns = (access: TPortalClientAccess) => ({
  id: documents.id,
  name: documents.name,
  size: documents.size,
  contentType: documents.contentType,
  updatedAt: documents.updatedAt,
  folderId: documents.folderId,
  /** Whether this person uploaded it; staff names never reach the portal. */
  byYou: sql<boolean>`coalesce(${documents.uploadedByClientUserId} = ${access.clientUserId}, false)`,
});

/**
 * A folder of the portal (the top when none is named): the crumbs from the top, its shown
 * sub-folders and one page of its shown files. Before the client's documents exist it is empty.
 */
export async function portalFolderContents(
  db: TExecutor,
  access: TPortalClientAccess,
  input: z.output<typeof ZPortalFolderInput>,
) {
  const empty = { rows: [], total: 0, page: input.page, pageSize: input.pageSize };
  let folder: { id: string; name: string; parentId: string | null };
  let path: { id: string; name: string }[];
  if (input.folderId) {
    const found = await portalFolder(db, access, input.folderId);
    folder = found.folder;
    path = found.path;
  } else {
    const root = await portalRoot(db, access);
    if (!root) return { folder: null, path: [], folders: [], documents: empty };
    folder = root;
    path = [{ id: root.id, name: root.name }];
  }
  const where = and(visibleDocument(access), eq(documents.folderId, folder.id));
  const [subfolders, rows, [total]] = await Promise.all([
    db
      .select({ id: documentFolders.id, name: documentFolders.name, updatedAt: documentFolders.updatedAt })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, access.orgId),
          eq(documentFolders.clientId, access.clientId),
          eq(documentFolders.parentId, folder.id),
          sql`${documentFolders.id} in ${visibleFolderIds(access)}`,
        ),
      )
      .orderBy(asc(documentFolders.name))
      .limit(500),
    db
      .select(fileColumns(access))
      .from(documents)
      .where(where)
      .orderBy(asc(documents.name), asc(documents.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(documents).where(where),
  ]);
  return {
    folder: { id: folder.id, name: folder.name, isTop: folder.parentId === null },
    path,
    folders: subfolders,
    documents: { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize },
  };
}

/** The newest files the portal shows, wherever they are (the home screen). */
export async function recentPortalDocuments(db: TExecutor, access: TPortalClientAccess, limit = 5) {
  return db
    .select(fileColumns(access))
    .from(documents)
    .where(visibleDocument(access))
    .orderBy(desc(documents.updatedAt), desc(documents.id))
    .limit(limit);
}

/** The stored version a portal download reads (always the current one), logged as a download. */
export async function portalVersionForDownload(
  db: TDb,
  access: TPortalClientAccess,
  documentId: string,
  meta: TRequestMeta,
) {
  const doc = await portalDocument(db, access, documentId);
  const [version] = await db
    .select()
    .from(documentVersions)
    .where(
      and(
        eq(documentVersions.orgId, access.orgId),
        eq(documentVersions.documentId, doc.id),
        eq(documentVersions.version, doc.currentVersion),
      ),
    )
    .limit(1);
  if (!version) throw folderNotFound();
  await db.transaction((tx) =>
    audit(tx, portalActorOf(access, meta), {
      action: 'documents.file.download',
      recordType: 'document',
      recordId: doc.id,
      summary: `Downloaded “${doc.name}” (version ${version.version}) from the client portal`,
    }),
  );
  return { doc, version };
}

/**
 * Where a portal upload may go: a shown folder, or the top (created with the client's documents
 * the first time, as a member opening them would). A task's attachment goes to the top too.
 */
export async function portalUploadTarget(
  db: TDb,
  access: TPortalClientAccess,
  target: { folderId?: string; taskId?: string },
) {
  if (target.taskId) await portalTask(db, access, target.taskId);
  if (target.folderId) return (await portalFolder(db, access, target.folderId)).folder;
  const root = await portalRoot(db, access);
  if (root) return root;
  const { clientName } = await whoActs(db, access);
  return ensureTree(db, { orgId: access.orgId, clientId: access.clientId, clientName });
}

/**
 * Records a portal upload: a new file (shared with the portal, uploaded by the client user) or a
 * new version of the shown file with that name in the folder. Linked to the task when one is named.
 * The firm hears of it (portalAudience: the task's people, the client's team, …, the admins; their
 * mail is queued in the same transaction).
 */
export async function recordPortalUpload(
  db: TDb,
  access: TPortalClientAccess,
  target: { folderId: string; taskId?: string },
  upload: TStoredUpload,
  meta: TRequestMeta,
  attempt = 0,
): Promise<{ id: string; name: string; version: number; folderId: string }> {
  try {
    return await db.transaction(async (tx) => {
      // Checked again inside the transaction: the folder may have been un-shared meanwhile.
      const { folder } = await portalFolder(tx, access, target.folderId);
      const task = target.taskId ? await portalTask(tx, access, target.taskId) : null;
      // A same-named internal file is not the client's to add versions to, nor to learn about:
      // the upload takes the first free "name (n).ext" instead.
      let name = upload.name;
      let existing: typeof documents.$inferSelect | undefined;
      for (let n = 1; ; n += 1) {
        [existing] = await tx
          .select()
          .from(documents)
          .where(
            and(
              eq(documents.orgId, access.orgId),
              eq(documents.folderId, folder.id),
              isNull(documents.deletedAt),
              sql`lower(${documents.name}) = lower(${name})`,
            ),
          )
          .limit(1)
          .for('update');
        if (!existing || existing.visibleToPortal || n > 50) break;
        name = numberedName(upload.name, n);
      }
      if (existing && !existing.visibleToPortal) throw new Error('no free name for a portal upload');
      const { doc, version } = await storeVersion(tx, {
        orgId: access.orgId,
        folder: { id: folder.id, clientId: access.clientId },
        existing,
        name,
        upload,
        visibleToPortal: true,
        by: { clientUserId: access.clientUserId },
      });
      if (task) {
        await tx
          .insert(taskAttachments)
          .values({
            orgId: access.orgId,
            taskId: task.id,
            documentId: doc.id,
            attachedByClientUserId: access.clientUserId,
          })
          .onConflictDoNothing();
      }
      const who = await whoActs(tx, access);
      await audit(tx, portalActorOf(access, meta), {
        action: existing ? 'documents.file.version' : 'documents.file.upload',
        recordType: 'document',
        recordId: doc.id,
        summary: `${who.userName} (client portal) uploaded ${
          existing ? `version ${version} of “${doc.name}”` : `“${doc.name}”`
        } (${upload.size} bytes) to “${folder.name}”${task ? ` for the task “${task.title}”` : ''}`,
      });
      await notify(tx, {
        orgId: access.orgId,
        memberIds: await portalAudience(tx, access, { taskId: task?.id, permission: 'documents.edit' }),
        kind: 'document.uploaded',
        title: `${who.userName} uploaded “${doc.name.slice(0, 120)}” for ${who.clientName.slice(0, 60)}`,
        body: task ? `Attached to the task “${task.title.slice(0, 150)}”.` : undefined,
        link: `/clients/${access.clientId}/documents/${folder.id}`,
      });
      await emitWebhookEvent(tx, access.orgId, 'document.uploaded_by_client', {
        id: doc.id,
        name: doc.name,
        version,
        size: upload.size,
        clientId: access.clientId,
        folderId: folder.id,
        taskId: task?.id ?? null,
      });
      return { id: doc.id, name: doc.name, version, folderId: folder.id };
    });
  } catch (error) {
    if (isUniqueViolation(error) && attempt === 0) {
      return recordPortalUpload(db, access, target, upload, meta, 1);
    }
    throw error;
  }
}

/** "Report.pdf" → "Report (1).pdf": the extension stays last so the file still opens. */
export function numberedName(name: string, n: number) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}
