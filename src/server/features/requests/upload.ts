import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_FILES_PER_ITEM, requestFilePath } from '../../../domain/requests/constants';
import {
  actorOf,
  portalActorOf,
  requestMeta,
  routePortalAccess,
  routeStaffScope,
  type TPortalClientAccess,
  type TRequestMeta,
} from '../../auth';
import type { TDb } from '../../db/client';
import { requestItemFiles } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { receiveUpload, registerMultipart, sendStoredFile, type TStoredUpload } from '../documents';
import { audit } from '../system-log';
import { fileNotFound, visibleItemFile } from './access';
import { answerableFile, fileAdded } from './portal';

export const REQUEST_UPLOAD_PATH = '/api/clientportal/requests/upload';

const ZFileParams = z.object({ id: z.uuid() });
const ZUploadQuery = z.object({ clientId: z.uuid(), requestId: z.uuid(), itemId: z.uuid() });

/**
 * Records a file the client uploaded to a file item: held with the item (not yet in the client's
 * documents) until the firm accepts the item (./filing).
 */
export async function recordRequestUpload(
  db: TDb,
  access: TPortalClientAccess,
  target: z.output<typeof ZUploadQuery>,
  upload: TStoredUpload,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { request, item } = await answerableFile(tx, access, target.requestId, target.itemId);
    if (item.fileCount >= MAX_FILES_PER_ITEM)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `An item holds at most ${MAX_FILES_PER_ITEM} files`,
      });
    const [file] = await tx
      .insert(requestItemFiles)
      .values({
        orgId: access.orgId,
        itemId: item.id,
        name: upload.name,
        size: upload.size,
        contentType: upload.contentType,
        checksumSha256: upload.checksumSha256,
        storageKey: upload.storageKey,
        uploadedByClientUserId: access.clientUserId,
      })
      .returning();
    if (!file) throw new Error('file not recorded');
    await fileAdded(tx, request, item);
    await audit(tx, portalActorOf(access, meta), {
      action: 'request.item.upload',
      recordType: 'request',
      recordId: request.id,
      summary: `Uploaded “${file.name}” (${upload.size} bytes) to “${item.label}” of the request “${request.title}” in the client portal`,
    });
    return {
      id: file.id,
      name: file.name,
      size: file.size,
      contentType: file.contentType,
      documentId: null,
      createdAt: file.createdAt,
    };
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
        throw error;
      }
    });
  });

  // GET /api/requests/files/{id}/download|preview: a file a client sent, for staff who may see the
  // request (held with its item or filed); each read is logged, as documents' are.
  const serve = (purpose: 'download' | 'preview') =>
    app.get(
      requestFilePath(':id', purpose),
      {
        config: {
          auth: { staff: 'requests.view' },
          link: purpose === 'download' ? 'requests.fileDownload' : 'requests.filePreview',
        },
      },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const params = ZFileParams.safeParse(req.params);
        if (!params.success) throw fileNotFound();
        const { file, request } = await visibleItemFile(db, scope, params.data.id, purpose);
        await db.transaction((tx) =>
          audit(tx, actorOf(scope, requestMeta(req)), {
            action: purpose === 'download' ? 'request.file.download' : 'request.file.preview',
            recordType: 'request',
            recordId: request.id,
            summary: `${purpose === 'download' ? 'Downloaded' : 'Previewed'} “${file.name}” of the request “${request.title}”`,
          }),
        );
        return sendStoredFile(req, reply, storage, { doc: file, version: file }, purpose);
      },
    );
  serve('download');
  serve('preview');
}
