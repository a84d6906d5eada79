import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZUploadShare } from '../../../domain/documents';
import { zCoerceInt } from '../../../domain/fields';
import { requestMeta, requirePermission, staffScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../db/client';
import type { TStorage } from '../../files/storage';
import {
  liveFolder,
  receiveUpload,
  recordUpload,
  registerMultipart,
  sendStoredFile,
  versionForDownload,
} from '../documents';
import { idempotent } from './idempotency';
import type { TApiKeyCaller } from './keys';

// A document's bytes over the public API: upload (multipart, streamed) and download (streamed), each
// through the documents feature's own service, so the app's rules hold: the size limit, the type
// taken from the bytes, a second upload of a name in a folder being its next version, folder rules,
// the portal choice and the system log. The key's role and its assigned clients are the scope.

type TDeps = { database: TDatabase; config: TConfig; storage: TStorage };

export const UPLOAD_OPERATION = 'uploadDocument';
export const DOWNLOAD_OPERATION = 'downloadDocument';

export const ZApiUploadQuery = z.object({
  folderId: z.uuid('Choose a folder'),
  share: ZUploadShare.optional(),
});
const ZApiDownloadQuery = z.object({ version: zCoerceInt().min(1).optional() });
const ZIdParams = z.object({ id: z.uuid() });

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

function callerOf(req: FastifyRequest): TApiKeyCaller {
  if (!req.apiCaller) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Send a live API key' });
  return req.apiCaller;
}

export async function registerDocumentApi(api: FastifyInstance, deps: TDeps) {
  const { database, storage } = deps;
  const db = database.db;
  const maxBytes = deps.config.storage.maxBytes;

  await api.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);

    /** POST /api/v1/documents?folderId=…[&share=true|false], the file as multipart field "file". */
    scoped.post('/documents', async (req, reply) => {
      const caller = callerOf(req);
      const scope = staffScope(caller.identity, 'documents.create');
      const query = ZApiUploadQuery.safeParse(req.query ?? {});
      if (!query.success) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'Name the folder as ?folderId=… (and share as true or false)',
        });
      }
      const { folderId, share } = query.data;
      if (share !== undefined) requirePermission(scope, 'documents.edit');
      // Before a byte is stored: the folder is live and the key reaches it (another firm's is a 404).
      await liveFolder(db, scope, folderId);
      const received = await receiveUpload(req, { storage, maxBytes }, scope.orgId);
      if (!received) return reply;
      const drop = () => storage.delete(received.storageKey).catch(() => {});
      const record = async () => {
        try {
          return await recordUpload(db, scope, folderId, received, requestMeta(req), { share });
        } catch (error) {
          await drop();
          throw error;
        }
      };
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || key === '') return reply.code(201).send(await record());
      // The same key again is the same folder, choice, name and bytes (by their checksum).
      const requestHash = createHash('sha256')
        .update(
          `${UPLOAD_OPERATION}\n${JSON.stringify([folderId, share ?? null, received.name, received.checksumSha256])}`,
        )
        .digest('hex');
      return idempotent(db, caller, { key, requestHash }, reply, record, drop);
    });
  });

  /** GET /api/v1/documents/{id}/content[?version=N]: the bytes, streamed, logged as a download. */
  api.get('/documents/:id/content', async (req: FastifyRequest, reply: FastifyReply) => {
    const scope = staffScope(callerOf(req).identity, 'documents.view');
    const params = ZIdParams.safeParse(req.params);
    if (!params.success) throw notFound();
    const query = ZApiDownloadQuery.safeParse(req.query ?? {});
    if (!query.success)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The version must be a whole number from 1' });
    const { doc, version } = await versionForDownload(
      db,
      scope,
      { documentId: params.data.id, version: query.data.version, purpose: 'download' },
      requestMeta(req),
    );
    return sendStoredFile(req, reply, storage, { doc, version }, 'download', { storedType: true });
  });
}
