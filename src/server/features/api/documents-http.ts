import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { parse as parseDisposition } from 'content-disposition';
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
  openTree,
  receiveRawUpload,
  receiveUpload,
  recordUpload,
  registerMultipart,
  sendStoredFile,
  type TStoredUpload,
  versionForDownload,
} from '../documents';
import { idempotent } from './idempotency';
import type { TApiKeyCaller } from './keys';

// A document's bytes over the public API: upload (multipart or the raw body, streamed) and download
// (streamed), each through the documents feature's own service, so the app's rules hold: the size
// limit, the type taken from the bytes, a second upload of a name in a folder being its next version, folder rules,
// the portal choice and the system log. The key's role and its assigned clients are the scope.

type TDeps = { database: TDatabase; config: TConfig; storage: TStorage };

export const UPLOAD_OPERATION = 'uploadDocument';
export const DOWNLOAD_OPERATION = 'downloadDocument';

/** Where an upload goes: a folder, or a client's top folder (one of the two). */
export const ZApiUploadQuery = z.object({
  folderId: z.uuid('Choose a folder').optional().describe('The folder; or give clientId'),
  clientId: z.uuid('Choose a client').optional().describe('The client, for its top folder; or give folderId'),
  share: ZUploadShare.optional(),
});
/** The raw upload's name, when given as a query parameter (else Content-Disposition's). */
export const ZApiRawUploadName = z.object({
  name: z
    .string()
    .optional()
    .describe("The file's name; or send it as Content-Disposition: attachment; filename=…"),
});
const ZApiDownloadQuery = z.object({ version: zCoerceInt().min(1).optional() });
const ZIdParams = z.object({ id: z.uuid() });

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

function callerOf(req: FastifyRequest): TApiKeyCaller {
  if (!req.apiCaller) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Send a live API key' });
  return req.apiCaller;
}

/**
 * Types a raw body may not declare: they are how a form or a multipart request is sent (curl's
 * `--data` sends the first), never a file's own type, so the body is not the file.
 */
const NOT_A_FILE_TYPE = /^(multipart\/|application\/x-www-form-urlencoded)/i;

/** The name of a raw upload: `?name=`, else Content-Disposition's filename (filename* decoded). */
function rawName(req: FastifyRequest, queried: string | undefined): string {
  if (queried !== undefined) return queried;
  const header = req.headers['content-disposition'];
  if (!header) return '';
  try {
    return parseDisposition(header).parameters.filename ?? '';
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The Content-Disposition header does not read' });
  }
}

type TReceive = (
  req: FastifyRequest,
  deps: { storage: TStorage; maxBytes: number },
  orgId: string,
) => Promise<TStoredUpload | null>;

export async function registerDocumentApi(api: FastifyInstance, deps: TDeps) {
  const { database, storage } = deps;
  const db = database.db;
  const maxBytes = deps.config.storage.maxBytes;

  /**
   * An upload, whichever way its bytes come: the folder checked before a byte is stored, the bytes
   * through the documents feature's one upload path, recorded (or dropped) as the app does.
   */
  async function upload(req: FastifyRequest, reply: FastifyReply, receive: TReceive) {
    const caller = callerOf(req);
    const scope = staffScope(caller.identity, 'documents.create');
    const query = ZApiUploadQuery.safeParse(req.query ?? {});
    if (!query.success || (query.data.folderId === undefined) === (query.data.clientId === undefined)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Name the folder as ?folderId=… or the client as ?clientId=… (and share as true or false)',
      });
    }
    const { share } = query.data;
    if (share !== undefined) requirePermission(scope, 'documents.edit');
    // Before a byte is stored: the folder is live and the key reaches it (another firm's folder or
    // client is a 404); a client's top folder is made as opening its documents would.
    const folderId = query.data.folderId ?? (await openTree(db, scope, query.data.clientId ?? null)).id;
    await liveFolder(db, scope, folderId);
    const received = await receive(req, { storage, maxBytes }, scope.orgId);
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
  }

  await api.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);
    /** POST /api/v1/documents?folderId=…[&share=true|false], the file as multipart field "file". */
    scoped.post('/documents', (req, reply) => upload(req, reply, receiveUpload));
  });

  await api.register(async (scoped) => {
    // The body is the file, streamed as it comes: no parser reads it first (nor caps it at 1 MB).
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (_req, _payload, done) => done(null));
    /** PUT /api/v1/documents?folderId=…&name=…[&share=…], the body the file, Content-Type its type. */
    scoped.put('/documents', (req, reply) => {
      const declaredType = req.headers['content-type'];
      if (!declaredType || NOT_A_FILE_TYPE.test(declaredType)) {
        req.raw.resume();
        throw new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: declaredType
            ? `${declaredType.split(';')[0]} is not a file's type: send the bytes with their own Content-Type (or POST them as multipart/form-data)`
            : "Send the file's type as Content-Type",
        });
      }
      const named = ZApiRawUploadName.safeParse(req.query ?? {});
      const name = rawName(req, named.success ? named.data.name : undefined);
      return upload(req, reply, (r, d, orgId) => receiveRawUpload(r, d, orgId, { name, declaredType }));
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
