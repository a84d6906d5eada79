import { TRPCError } from '@trpc/server';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { TAttachmentSave } from '../../../domain/messages';
import { MESSAGES_FOLDER } from '../../../domain/messages';
import { numberedName } from '../../../domain/requests/filing';
import {
  actorOf,
  requirePermission,
  type TActor,
  type TPortalClientAccess,
  type TRequestMeta,
  type TScope,
} from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { documents, documentVersions, messageAttachments, messages } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import {
  ensureTree,
  liveFolder,
  recordUpload,
  storeVersion,
  type TStoredUpload,
  topFolder,
} from '../documents';
import { audit } from '../system-log';
import { portalThread, type TThreadRow, visibleThread } from './access';

// A message's files are the client's documents (issue 38): uploaded into a "Messages" folder at the
// top of the client's documents, under the documents' upload rules (the same streamed upload, size
// limit and type checks). The folder is shared with the portal; each file starts internal and is
// shared when it is sent in a message to the client, so a note's file and a file not yet sent stay
// with the firm.

const fileNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

/** The client's Messages folder, made (shared with the portal) the first time it is needed. */
export async function messagesFolder(db: TDb, orgId: string, clientId: string, clientName: string) {
  const root = await ensureTree(db, { orgId, clientId, clientName });
  // The product's own set-up, as a tree's: no one's doing.
  return topFolder(
    db,
    root,
    { name: MESSAGES_FOLDER, visibleToPortal: true },
    { actor: { kind: 'system', orgId }, why: 'for message attachments' },
  );
}

/** A name free among the folder's live files: "scan.pdf", then "scan (2).pdf", … */
async function freeName(tx: TExecutor, orgId: string, folderId: string, wanted: string) {
  let name = wanted;
  for (let n = 2; n <= 500; n += 1) {
    const [taken] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(
        and(
          eq(documents.orgId, orgId),
          eq(documents.folderId, folderId),
          isNull(documents.deletedAt),
          sql`lower(${documents.name}) = lower(${name})`,
        ),
      )
      .limit(1);
    if (!taken) return name;
    name = numberedName(wanted, n);
  }
  throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
}

export type TUploader = { memberId: string } | { clientUserId: string };

/**
 * Records a stored upload as a new document in the thread's client's Messages folder, waiting to be
 * sent with the uploader's next message in the thread.
 */
export async function recordAttachment(
  db: TDb,
  input: {
    thread: TThreadRow;
    folderId: string;
    upload: TStoredUpload;
    by: TUploader;
    actor: TActor;
    /** Re-reads the thread under the caller's rule inside the transaction. */
    recheck: (tx: TExecutor) => Promise<unknown>;
  },
) {
  const { thread, upload, by } = input;
  try {
    return await db.transaction(async (tx) => {
      await input.recheck(tx);
      const { doc, name } = await fileOne(tx, {
        thread,
        folderId: input.folderId,
        upload,
        by,
        shared: false,
      });
      await audit(tx, input.actor, {
        action: 'message.attachment.upload',
        recordType: 'messageThread',
        recordId: thread.id,
        summary: `Uploaded “${name}” (${upload.size} bytes) to the Messages folder for the conversation “${thread.subject}”`,
      });
      return { documentId: doc.id, name, size: upload.size, contentType: upload.contentType };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
    throw error;
  }
}

/**
 * Stored files (a released held mail's) filed as a message's files in one transaction: each a new
 * document of the client's Messages folder (a free name there), shared with the portal when the
 * message is shown to the client, and a file of `messageId` straight away.
 */
export async function fileAsMessageFiles(
  tx: TExecutor,
  input: {
    thread: TThreadRow;
    folderId: string;
    messageId: string;
    files: TStoredUpload[];
    shared: boolean;
    by: TUploader;
  },
) {
  const { thread, by } = input;
  const filed: { documentId: string; name: string }[] = [];
  for (const upload of input.files) {
    const { doc, name } = await fileOne(tx, {
      thread,
      folderId: input.folderId,
      upload,
      by,
      shared: input.shared,
      messageId: input.messageId,
    });
    filed.push({ documentId: doc.id, name });
  }
  return filed;
}

/**
 * One stored file as a new document of the thread's Messages folder under a free name, and a file
 * of the thread (of `messageId` at once, or of the next message sent).
 */
async function fileOne(
  tx: TExecutor,
  input: {
    thread: TThreadRow;
    folderId: string;
    upload: TStoredUpload;
    by: TUploader;
    shared: boolean;
    messageId?: string;
  },
) {
  const { thread, upload, by } = input;
  const name = await freeName(tx, thread.orgId, input.folderId, upload.name);
  const { doc } = await storeVersion(tx, {
    orgId: thread.orgId,
    folder: { id: input.folderId, clientId: thread.clientId },
    existing: undefined,
    name,
    upload,
    visibleToPortal: input.shared,
    by,
  });
  await tx.insert(messageAttachments).values({
    orgId: thread.orgId,
    documentId: doc.id,
    threadId: thread.id,
    messageId: input.messageId ?? null,
    uploadedByMemberId: 'memberId' in by ? by.memberId : null,
    uploadedByClientUserId: 'clientUserId' in by ? by.clientUserId : null,
    name,
    size: upload.size,
  });
  return { doc, name };
}

async function attachmentRow(db: TExecutor, orgId: string, documentId: string) {
  const [row] = await db
    .select({
      threadId: messageAttachments.threadId,
      messageId: messageAttachments.messageId,
      uploadedByMemberId: messageAttachments.uploadedByMemberId,
      uploadedByClientUserId: messageAttachments.uploadedByClientUserId,
      internal: messages.internal,
      name: documents.name,
      deletedAt: documents.deletedAt,
      storageKey: documentVersions.storageKey,
      size: documentVersions.size,
      contentType: documentVersions.contentType,
      checksumSha256: documentVersions.checksumSha256,
      version: documentVersions.version,
    })
    .from(messageAttachments)
    .innerJoin(
      documents,
      and(eq(documents.orgId, messageAttachments.orgId), eq(documents.id, messageAttachments.documentId)),
    )
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.orgId, documents.orgId), eq(documentVersions.id, documents.currentVersionId)),
    )
    .leftJoin(
      messages,
      and(eq(messages.orgId, messageAttachments.orgId), eq(messages.id, messageAttachments.messageId)),
    )
    .where(and(eq(messageAttachments.orgId, orgId), eq(messageAttachments.documentId, documentId)))
    .limit(1);
  if (!row || row.deletedAt) throw fileNotFound();
  return row;
}

const served = (documentId: string, row: Awaited<ReturnType<typeof attachmentRow>>) => ({
  doc: { id: documentId, name: row.name },
  version: row,
});

/** A message's file for a member who sees its thread (a file not yet sent: its uploader only). */
export async function staffAttachment(db: TExecutor, scope: TScope, documentId: string) {
  const row = await attachmentRow(db, scope.orgId, documentId);
  const thread = await visibleThread(db, scope, row.threadId).catch(() => {
    throw fileNotFound();
  });
  if (!row.messageId && row.uploadedByMemberId !== scope.memberId) throw fileNotFound();
  return { thread, ...served(documentId, row) };
}

/** A message's file for a portal user on its thread: never a note's, nor another's unsent one. */
export async function portalAttachment(db: TExecutor, access: TPortalClientAccess, documentId: string) {
  const row = await attachmentRow(db, access.orgId, documentId);
  const thread = await portalThread(db, access, row.threadId).catch(() => {
    throw fileNotFound();
  });
  if (row.messageId ? row.internal : row.uploadedByClientUserId !== access.clientUserId) throw fileNotFound();
  return { thread, ...served(documentId, row) };
}

/**
 * "Save to folder" on a message's file: a copy of its bytes, a file of its own in another folder of
 * the thread's client's documents, under the documents' upload rules (the right to add files, the
 * folder live and open to the member, a file of the same name there gets a new version, a new file
 * follows its folder's sharing). The message keeps its own file.
 */
export async function saveAttachmentCopy(
  db: TDb,
  storage: TStorage,
  scope: TScope,
  input: TAttachmentSave,
  meta: TRequestMeta,
) {
  requirePermission(scope, 'clients.view');
  const { thread, doc, version } = await staffAttachment(db, scope, input.documentId);
  const { folder } = await liveFolder(db, scope, input.folderId);
  if (folder.clientId !== thread.clientId)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: "A conversation's file is saved in its own client's documents",
    });
  const body = await storage.get(version.storageKey);
  if (!body) throw fileNotFound();
  const storageKey = `${scope.orgId}/${uuidv7()}`;
  await storage.put(storageKey, body, { contentType: version.contentType });
  try {
    const saved = await recordUpload(
      db,
      scope,
      folder.id,
      {
        name: doc.name,
        size: version.size,
        contentType: version.contentType,
        checksumSha256: version.checksumSha256,
        storageKey,
      },
      meta,
      {
        afterRecord: async (tx, copy) => {
          await audit(tx, actorOf(scope, meta), {
            action: 'message.attachment.save',
            recordType: 'messageThread',
            recordId: thread.id,
            summary: `Saved a copy of “${doc.name}” from the conversation “${thread.subject}” to “${folder.name}” as “${copy.name}”`,
          });
        },
      },
    );
    return { documentId: saved.id, name: saved.name, version: saved.version, folderId: folder.id };
  } catch (error) {
    await storage.delete(storageKey).catch(() => {});
    throw error;
  }
}
