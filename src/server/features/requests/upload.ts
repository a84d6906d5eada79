import { TRPCError } from '@trpc/server';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_FILES_PER_ITEM } from '../../../domain/requests/constants';
import {
  portalActorOf,
  requestMeta,
  routePortalAccess,
  type TPortalClientAccess,
  type TRequestMeta,
} from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clients, documentFolders, documents, requestItemFiles, requests } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { ensureTree, receiveUpload, registerMultipart, storeVersion, type TStoredUpload } from '../documents';
import { audit } from '../system-log';
import type { TRequestRow } from './access';
import { answerableFile, fileAdded } from './portal';

export const REQUEST_UPLOAD_PATH = '/api/clientportal/requests/upload';

const ZUploadQuery = z.object({ clientId: z.uuid(), requestId: z.uuid(), itemId: z.uuid() });

/** "Form 16.pdf" → "Form 16 (2).pdf": the extension stays last so the file still opens. */
const numbered = (name: string, n: number) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
};

/** A folder name from the request's title: no "/", and short enough to leave room for "(n)". */
const folderNameOf = (title: string) => title.replaceAll('/', '-').trim().slice(0, 200) || 'Request';

/**
 * The request's folder in the client's documents (internal: the client sees its files through the
 * request), made under the top folder the first time a file arrives and kept on the request.
 */
async function requestFolder(tx: TExecutor, request: TRequestRow, rootId: string) {
  if (request.folderId) {
    const [live] = await tx
      .select({ id: documentFolders.id })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, request.orgId),
          eq(documentFolders.id, request.folderId),
          isNull(documentFolders.deletedAt),
        ),
      );
    if (live) return live.id;
  }
  const base = folderNameOf(request.title);
  for (let n = 1; n <= 50; n += 1) {
    const name = n === 1 ? base : `${base} (${n})`;
    const [folder] = await tx
      .insert(documentFolders)
      .values({ orgId: request.orgId, clientId: request.clientId, parentId: rootId, name })
      .onConflictDoNothing()
      .returning({ id: documentFolders.id });
    if (!folder) continue;
    await tx
      .update(requests)
      .set({ folderId: folder.id })
      .where(and(eq(requests.orgId, request.orgId), eq(requests.id, request.id)));
    return folder.id;
  }
  throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
}

/** Records a file the client uploaded to a file item: a document in the request's folder. */
export async function recordRequestUpload(
  db: TDb,
  access: TPortalClientAccess,
  target: z.output<typeof ZUploadQuery>,
  upload: TStoredUpload,
  meta: TRequestMeta,
) {
  const [client] = await db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, access.orgId), eq(clients.id, access.clientId)));
  const root = await ensureTree(db, {
    orgId: access.orgId,
    clientId: access.clientId,
    clientName: client?.name ?? null,
  });
  return db.transaction(async (tx) => {
    const { request, item } = await answerableFile(tx, access, target.requestId, target.itemId);
    if (item.fileCount >= MAX_FILES_PER_ITEM)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `An item holds at most ${MAX_FILES_PER_ITEM} files`,
      });
    const folderId = await requestFolder(tx, request, root.id);
    let name = upload.name;
    for (let n = 2; n <= 200; n += 1) {
      const [taken] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(
          and(
            eq(documents.orgId, access.orgId),
            eq(documents.folderId, folderId),
            isNull(documents.deletedAt),
            sql`lower(${documents.name}) = lower(${name})`,
          ),
        )
        .limit(1);
      if (!taken) break;
      name = numbered(upload.name, n);
    }
    const { doc } = await storeVersion(tx, {
      orgId: access.orgId,
      folder: { id: folderId, clientId: access.clientId },
      existing: undefined,
      name,
      upload,
      visibleToPortal: false,
      by: { clientUserId: access.clientUserId },
    });
    await tx.insert(requestItemFiles).values({ orgId: access.orgId, itemId: item.id, documentId: doc.id });
    await fileAdded(tx, request, item);
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.item.upload',
      recordType: 'request',
      recordId: request.id,
      summary: `Uploaded “${doc.name}” (${upload.size} bytes) to “${item.label}” of the request “${request.title}” in the client portal`,
    });
    return { id: doc.id, name: doc.name, size: doc.size, contentType: doc.contentType };
  });
}

export function registerRequestUploadRoute(
  app: FastifyInstance,
  deps: { db: TDb; storage: TStorage; maxBytes: number },
) {
  const { db, storage, maxBytes } = deps;
  app.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);

    /**
     * POST /api/clientportal/requests/upload?clientId=…&requestId=…&itemId=…: one file per request
     * to a file item, streamed with the documents' machinery (size limit while the bytes arrive,
     * name and type checks). Several files are several requests.
     */
    scoped.post(REQUEST_UPLOAD_PATH, { config: { auth: 'portal' } }, async (req, reply) => {
      const raw = (req.query ?? {}) as Record<string, unknown>;
      const access = routePortalAccess(req, raw.clientId);
      const query = ZUploadQuery.safeParse(raw);
      if (!query.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Item not found' });
      const meta = requestMeta(req);
      // Refused before the bytes are read when the item cannot take files.
      await db.transaction((tx) => answerableFile(tx, access, query.data.requestId, query.data.itemId));
      const received = await receiveUpload(req, { storage, maxBytes }, access.orgId);
      if (!received) return reply;
      try {
        const result = await recordRequestUpload(db, access, query.data, received, meta);
        return reply.code(201).send(result);
      } catch (error) {
        await storage.delete(received.storageKey).catch(() => {});
        if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
        throw error;
      }
    });
  });
}
