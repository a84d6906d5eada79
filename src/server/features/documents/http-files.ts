import { once } from 'node:events';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DOCUMENT_UPLOAD_PATH, isPreviewable, ZUploadShare } from '../../../domain/documents';
import { zCoerceInt } from '../../../domain/fields';
import { requestMeta, requirePermission, routeStaffScope, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import type { documentVersions } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { contentDisposition } from '../../http/content-disposition';
import { liveFolder } from './access';
import { recordUpload, versionForDownload } from './files';
import { receiveUpload, registerMultipart } from './upload-stream';
import { zipEntries } from './zip';

/** Into a folder, or (taskId) into the task's attachments folder, attached to the task. */
const ZUploadQuery = z.union([
  z.object({ folderId: z.uuid('Choose a folder'), share: ZUploadShare.optional() }),
  z.object({ taskId: z.uuid('This task link is not valid') }),
]);
const ZDocumentParams = z.object({ id: z.uuid() });
const ZDownloadQuery = z.object({ version: zCoerceInt().min(1).optional() });

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

/** A response that can never run as a page of our origin, whatever the bytes are. */
const LOCKED_DOWN_CSP = "default-src 'none'; sandbox";

/** What serving a stored file needs of its record: a document's version, or a leave attachment. */
export type TStoredFile = Pick<
  typeof documentVersions.$inferSelect,
  'storageKey' | 'size' | 'contentType' | 'checksumSha256'
> & { version?: number };

/**
 * Streams one stored version as a download (always an attachment) or a preview (inline, locked
 * down). Shared with the client portal's download route and leave attachments.
 */
export async function sendStoredFile(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: TStorage,
  { doc, version }: { doc: { id: string; name: string }; version: TStoredFile },
  purpose: 'download' | 'preview',
  /** An API download names the stored type (a script reads it; no browser renders it). */
  options: { storedType?: boolean } = {},
) {
  const body = await storage.get(version.storageKey);
  if (!body) {
    req.log.error({ fileId: doc.id, version: version.version }, 'stored file is missing');
    throw notFound();
  }
  reply
    .code(200)
    .header('content-length', String(version.size))
    .header(
      'content-disposition',
      contentDisposition(purpose === 'preview' ? 'inline' : 'attachment', doc.name),
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('etag', `"${version.checksumSha256}"`)
    .header('x-checksum-sha256', version.checksumSha256)
    .header(
      'content-security-policy',
      purpose === 'preview' && version.contentType === 'application/pdf'
        ? // Chromium's PDF viewer does not run in a sandboxed document; no script or fetch still.
          "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'"
        : `${LOCKED_DOWN_CSP}; frame-ancestors 'self'`,
    )
    // An attachment is never rendered; its type is only a hint to the person's computer.
    .type(purpose === 'preview' || options.storedType ? version.contentType : 'application/octet-stream');
  return reply.send(body);
}

/**
 * Where an upload for a task goes and how the recorded file is linked to it. The tasks feature
 * provides it at the composition root: documents do not know what a task is.
 */
export type TTaskUploadTarget = (
  db: TDb,
  scope: TScope,
  taskId: string,
  meta: TRequestMeta,
) => Promise<{
  folderId: string;
  afterRecord: NonNullable<Parameters<typeof recordUpload>[5]>['afterRecord'];
  /** The scope the upload acts with: the task's grant reaches its client's attachments folder. */
  scope: TScope;
}>;

export function registerDocumentRoutes(
  app: FastifyInstance,
  deps: { db: TDb; storage: TStorage; maxBytes: number; uploadTargetForTask: TTaskUploadTarget },
) {
  const { db, storage, maxBytes, uploadTargetForTask } = deps;

  // Multipart only in this scope: the rest of the API keeps its 1 MB JSON bodies.
  app.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);

    /**
     * POST /api/documents/upload?folderId=…: one file per request (the browser sends one request per
     * file, each with its own progress and cancel), streamed to storage while its size, checksum and
     * type are taken. A file that breaks the limit or is cut off leaves nothing behind.
     */
    scoped.post(
      DOCUMENT_UPLOAD_PATH,
      { config: { auth: { staff: 'documents.create' } } },
      async (req, reply) => {
        let scope = routeStaffScope(req);
        const query = ZUploadQuery.safeParse(req.query ?? {});
        if (!query.success) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose a folder' });
        let folderId: string;
        let afterRecord: NonNullable<Parameters<typeof recordUpload>[5]>['afterRecord'];
        let share: boolean | undefined;
        if ('taskId' in query.data) {
          ({ folderId, afterRecord, scope } = await uploadTargetForTask(
            db,
            scope,
            query.data.taskId,
            requestMeta(req),
          ));
        } else {
          folderId = query.data.folderId;
          share = query.data.share;
          // Choosing what the client sees is the right to change it, as on the file afterwards.
          if (share !== undefined) requirePermission(scope, 'documents.edit');
        }
        await liveFolder(db, scope, folderId);
        const received = await receiveUpload(req, { storage, maxBytes }, scope.orgId);
        if (!received) return reply;
        try {
          const saved = await recordUpload(db, scope, folderId, received, requestMeta(req), {
            afterRecord,
            share,
          });
          return reply.code(201).send(saved);
        } catch (error) {
          await storage.delete(received.storageKey).catch(() => {});
          throw error;
        }
      },
    );
  });

  const serve = (purpose: 'download' | 'preview') =>
    app.get(
      `/api/documents/:id/${purpose}`,
      { config: { auth: { staff: 'documents.view' }, link: `document.${purpose}` } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const params = ZDocumentParams.safeParse(req.params);
        const query = ZDownloadQuery.safeParse(req.query ?? {});
        if (!params.success) throw notFound();
        if (!query.success)
          throw new TRPCError({
            code: 'BAD_REQUEST',
            message: 'Choose a version of the file from its history',
          });
        const { doc, version } = await versionForDownload(
          db,
          scope,
          { documentId: params.data.id, version: query.data.version, purpose },
          requestMeta(req),
        );
        if (purpose === 'preview' && !isPreviewable(version.contentType)) {
          throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only PDFs and images can be previewed' });
        }
        return sendStoredFile(req, reply, storage, { doc, version }, purpose);
      },
    );
  serve('download');
  serve('preview');

  /** GET /api/documents/folders/:id/zip: the folder and everything under it, streamed as a zip. */
  app.get(
    '/api/documents/folders/:id/zip',
    { config: { auth: { staff: 'documents.view' }, link: 'folder.zip' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const params = ZDocumentParams.safeParse(req.params);
      if (!params.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Folder not found' });
      const entries = await zipEntries(db, scope, params.data.id, requestMeta(req));
      // Stored, not deflated: PDFs, scans and office files are compressed already.
      const { ZipArchive } = await import('archiver');
      const archive = new ZipArchive({ store: true });
      archive.on('warning', (err) => req.log.warn({ err }, 'zip warning'));
      void (async () => {
        for (const entry of entries.files) {
          const body = await storage.get(entry.storageKey);
          if (!body) continue;
          archive.append(body, { name: entry.path, date: entry.updatedAt });
          await once(archive, 'entry');
        }
        await archive.finalize();
      })().catch((err) => {
        req.log.error({ err }, 'folder zip failed');
        archive.abort();
      });
      reply
        .code(200)
        .type('application/zip')
        .header('content-disposition', contentDisposition('attachment', `${entries.name}.zip`))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return reply.send(archive);
    },
  );
}
