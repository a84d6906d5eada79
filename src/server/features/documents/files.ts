import { TRPCError } from '@trpc/server';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TPortalState } from '../../../domain/documents';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientUsers, documentFolders, documents, documentVersions, members } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { audit } from '../system-log';
import { checkTree, documentNotFound, liveDocument, liveFolder } from './access';
import { clientTreeReach } from './folders';
import { movedInPortal, portalReach, portalState, type TFolderRef } from './portal-visibility';
import { logFileVisibility, openWayTo, refuseVaultSharing } from './sharing';

const fileTaken = (name: string) =>
  new TRPCError({ code: 'CONFLICT', message: `A file named “${name}” already exists in this folder` });

export async function renameDocument(
  db: TDb,
  scope: TScope,
  input: { documentId: string; name: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const { doc } = await liveDocument(tx, scope, input.documentId);
      if (doc.name === input.name) return doc;
      const [after] = await tx
        .update(documents)
        .set({ name: input.name })
        .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)))
        .returning();
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.file.rename',
        recordType: 'document',
        recordId: doc.id,
        summary: `Renamed the file “${doc.name}” to “${input.name}”`,
        changes: { name: { from: doc.name, to: input.name } },
      });
      return after ?? doc;
    })
    .catch((error) => {
      if (isUniqueViolation(error)) throw fileTaken(input.name);
      throw error;
    });
}

export async function moveDocument(
  db: TDb,
  scope: TScope,
  input: { documentId: string; targetId: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const { doc, folder, path: from } = await liveDocument(tx, scope, input.documentId);
      const { folder: target, path: to } = await liveFolder(tx, scope, input.targetId);
      if (target.clientId !== doc.clientId) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'A file moves only within the same documents' });
      }
      if (target.id === doc.folderId) return doc;
      const [after] = await tx
        .update(documents)
        .set({ folderId: target.id })
        .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)))
        .returning();
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.file.move',
        recordType: 'document',
        recordId: doc.id,
        summary: `Moved the file “${doc.name}” from “${folder.name}” to “${target.name}”${movedInPortal(doc, from, to)}`,
        changes: { folderId: { from: doc.folderId, to: target.id } },
      });
      return after ?? doc;
    })
    .catch((error) => {
      if (isUniqueViolation(error)) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: 'The target folder already has a file with this name',
        });
      }
      throw error;
    });
}

export async function deleteDocument(db: TDb, scope: TScope, documentId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { doc } = await liveDocument(tx, scope, documentId);
    await tx
      .update(documents)
      .set({ deletedAt: new Date() })
      .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.file.delete',
      recordType: 'document',
      recordId: doc.id,
      summary: `Moved the file “${doc.name}” to the trash`,
    });
    return { id: doc.id, folderId: doc.folderId };
  });
}

/** A file's versions, newest first. */
export async function documentVersionsOf(db: TExecutor, scope: TScope, documentId: string) {
  const { doc } = await liveDocument(db, scope, documentId);
  const rows = await db
    .select({
      id: documentVersions.id,
      version: documentVersions.version,
      size: documentVersions.size,
      contentType: documentVersions.contentType,
      checksumSha256: documentVersions.checksumSha256,
      createdAt: documentVersions.createdAt,
      // A version the client uploaded in the portal names the client user, marked as the client's.
      uploadedBy: sql<string | null>`coalesce(${memberName}, ${clientUsers.name} || ' (client)')`,
    })
    .from(documentVersions)
    .leftJoin(
      members,
      and(eq(members.orgId, documentVersions.orgId), eq(members.id, documentVersions.uploadedByMemberId)),
    )
    .leftJoin(
      clientUsers,
      and(
        eq(clientUsers.orgId, documentVersions.orgId),
        eq(clientUsers.id, documentVersions.uploadedByClientUserId),
      ),
    )
    .where(and(eq(documentVersions.orgId, scope.orgId), eq(documentVersions.documentId, doc.id)))
    .orderBy(desc(documentVersions.version))
    .limit(500);
  return { document: { id: doc.id, name: doc.name, currentVersion: doc.currentVersion }, versions: rows };
}

/**
 * Files of a tree whose name contains the term (the trigram index on lower(name) serves it),
 * with the folder each is in and what the client sees of it. Files in a deleted folder are left out.
 */
export async function searchDocuments(
  db: TExecutor,
  scope: TScope,
  input: { clientId: string | null; search: string; limit: number },
) {
  await checkTree(db, scope, input.clientId);
  const [rows, reachOf] = await Promise.all([
    db
      .select({
        id: documents.id,
        name: documents.name,
        size: documents.size,
        contentType: documents.contentType,
        version: documents.currentVersion,
        visibleToPortal: documents.visibleToPortal,
        updatedAt: documents.updatedAt,
        folderId: documents.folderId,
        folderName: documentFolders.name,
      })
      .from(documents)
      .innerJoin(
        documentFolders,
        and(eq(documentFolders.orgId, documents.orgId), eq(documentFolders.id, documents.folderId)),
      )
      .where(
        and(
          eq(documents.orgId, scope.orgId),
          input.clientId === null ? isNull(documents.clientId) : eq(documents.clientId, input.clientId),
          isNull(documents.deletedAt),
          isNull(documentFolders.deletedAt),
          sql`lower(${documents.name}) like ${escapeLike(input.search.toLowerCase())}`,
        ),
      )
      .orderBy(documents.name, documents.id)
      .limit(input.limit),
    input.clientId === null ? null : clientTreeReach(db, scope.orgId, input.clientId),
  ]);
  return rows.flatMap((row) => {
    // A file whose folder lies under a deleted one is in the trash with it.
    const reach = reachOf ? reachOf(row.folderId) : portalReach(null, []);
    if (!reach) return [];
    return [{ ...row, portal: portalState(row.visibleToPortal, reach), hiddenBy: reach.hiddenBy }];
  });
}

export type TStoredUpload = {
  name: string;
  size: number;
  contentType: string;
  checksumSha256: string;
  storageKey: string;
};

type TDocumentRow = typeof documents.$inferSelect;

/**
 * The rows of one upload: the document (unless `existing` gets a new version), its version, and
 * the document pointing at that version as its current one. Staff and portal uploads share it;
 * who uploaded is a member or a client user, never both.
 */
export async function storeVersion(
  tx: TExecutor,
  input: {
    orgId: string;
    folder: { id: string; clientId: string | null };
    existing: TDocumentRow | undefined;
    /** The new file's name; an existing file keeps its own. */
    name?: string;
    upload: TStoredUpload;
    visibleToPortal: boolean;
    by: { memberId: string } | { clientUserId: string };
  },
): Promise<{ doc: TDocumentRow; version: number }> {
  const { orgId, existing, upload } = input;
  const uploader = {
    uploadedByMemberId: 'memberId' in input.by ? input.by.memberId : null,
    uploadedByClientUserId: 'clientUserId' in input.by ? input.by.clientUserId : null,
  };
  const version = existing ? existing.currentVersion + 1 : 1;
  const doc =
    existing ??
    (
      await tx
        .insert(documents)
        .values({
          orgId,
          folderId: input.folder.id,
          clientId: input.folder.clientId,
          name: input.name ?? upload.name,
          size: upload.size,
          contentType: upload.contentType,
          currentVersion: 1,
          visibleToPortal: input.visibleToPortal,
          ...uploader,
        })
        .returning()
    )[0];
  if (!doc) throw new Error('document not created');
  const [row] = await tx
    .insert(documentVersions)
    .values({
      orgId,
      documentId: doc.id,
      version,
      size: upload.size,
      contentType: upload.contentType,
      checksumSha256: upload.checksumSha256,
      storageKey: upload.storageKey,
      ...uploader,
    })
    .returning({ id: documentVersions.id });
  await tx
    .update(documents)
    .set({
      currentVersionId: row?.id,
      currentVersion: version,
      size: upload.size,
      contentType: upload.contentType,
      ...uploader,
      updatedAt: new Date(),
    })
    .where(and(eq(documents.orgId, orgId), eq(documents.id, doc.id)));
  return { doc, version };
}

/**
 * Records a stored upload: a new file, or a new version of the live file with the same name in
 * the folder. Two first uploads of one name at once meet the unique index; the loser becomes the
 * second version.
 */
export async function recordUpload(
  db: TDb,
  scope: TScope,
  folderId: string,
  upload: TStoredUpload,
  meta: TRequestMeta,
  options: {
    /** Runs in the upload's transaction once the file is recorded (a task links it, for one). */
    afterRecord?: (tx: TExecutor, doc: { id: string; name: string }) => Promise<void>;
    /**
     * true: the file is shared with the portal, with the folders above it (openWayTo); false: a new
     * file is internal. Absent: a new file follows its folder. A new version never hides a file.
     */
    share?: boolean;
    attempt?: number;
  } = {},
): Promise<{
  id: string;
  name: string;
  version: number;
  created: boolean;
  portal: TPortalState;
  alsoShared: TFolderRef[];
}> {
  const { share } = options;
  try {
    return await db.transaction(async (tx) => {
      const { folder, path } = await liveFolder(tx, scope, folderId);
      if (share) refuseVaultSharing(folder.clientId, 'files');
      const [existing] = await tx
        .select()
        .from(documents)
        .where(
          and(
            eq(documents.orgId, scope.orgId),
            eq(documents.folderId, folder.id),
            isNull(documents.deletedAt),
            sql`lower(${documents.name}) = lower(${upload.name})`,
          ),
        )
        .limit(1)
        .for('update');
      // Unless the uploader chose, a new file follows the folder it lands in (the vault is internal).
      const newFileShared = share ?? (folder.clientId !== null && folder.visibleToPortal);
      const { doc, version } = await storeVersion(tx, {
        orgId: scope.orgId,
        folder,
        existing,
        upload,
        visibleToPortal: newFileShared,
        by: { memberId: scope.memberId },
      });
      await audit(tx, actorOf(scope, meta), {
        action: existing ? 'documents.file.version' : 'documents.file.upload',
        recordType: 'document',
        recordId: doc.id,
        summary: existing
          ? `Uploaded version ${version} of “${doc.name}” (${upload.size} bytes) in “${folder.name}”`
          : `Uploaded “${upload.name}” (${upload.size} bytes) to “${folder.name}”`,
      });
      if (share && existing && !existing.visibleToPortal) {
        await tx
          .update(documents)
          .set({ visibleToPortal: true })
          .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)));
        await logFileVisibility(tx, scope, meta, doc, true);
      }
      const reach = portalReach(folder.clientId, path);
      const alsoShared = share ? await openWayTo(tx, scope, meta, reach.hiddenBy, doc.name) : [];
      const shared = share === true || (existing ? existing.visibleToPortal : newFileShared);
      await options.afterRecord?.(tx, { id: doc.id, name: doc.name });
      return {
        id: doc.id,
        name: doc.name,
        version,
        created: !existing,
        // Shared with the way opened, the client sees it whatever the folders said before.
        portal: share ? 'visible' : portalState(shared, reach),
        alsoShared,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error) && !options.attempt) {
      return recordUpload(db, scope, folderId, upload, meta, { ...options, attempt: 1 });
    }
    throw error;
  }
}

/**
 * The stored version a download or preview reads (the current one unless asked), after the same
 * checks as every procedure; the read is written to the system log.
 */
/** The version a caller may download or preview (the current one by default), else NOT_FOUND. */
export async function downloadableVersion(
  db: TExecutor,
  scope: TScope,
  input: { documentId: string; version?: number },
) {
  const { doc } = await liveDocument(db, scope, input.documentId);
  const [version] = await db
    .select()
    .from(documentVersions)
    .where(
      and(
        eq(documentVersions.orgId, scope.orgId),
        eq(documentVersions.documentId, doc.id),
        eq(documentVersions.version, input.version ?? doc.currentVersion),
      ),
    )
    .limit(1);
  if (!version) throw documentNotFound();
  return { doc, version };
}

export async function versionForDownload(
  db: TDb,
  scope: TScope,
  input: { documentId: string; version?: number; purpose: 'download' | 'preview' },
  meta: TRequestMeta,
) {
  const { doc, version } = await downloadableVersion(db, scope, input);
  await db.transaction((tx) =>
    audit(tx, actorOf(scope, meta), {
      action: input.purpose === 'download' ? 'documents.file.download' : 'documents.file.preview',
      recordType: 'document',
      recordId: doc.id,
      summary: `${input.purpose === 'download' ? 'Downloaded' : 'Previewed'} “${doc.name}” (version ${version.version})`,
    }),
  );
  return { doc, version };
}
