import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PORTAL_UPLOAD_PATH } from '../../../domain/client-portal';
import { requestMeta, routePortalAccess } from '../../auth';
import type { TDb } from '../../db/client';
import type { TStorage } from '../../files/storage';
import { receiveUpload, registerMultipart, sendStoredFile } from '../documents';
import { portalUploadTarget, portalVersionForDownload, recordPortalUpload } from './documents';

const ZUploadQuery = z.object({
  clientId: z.uuid(),
  folderId: z.uuid().optional(),
  taskId: z.uuid().optional(),
});
const ZDownloadParams = z.object({ clientId: z.uuid(), id: z.uuid() });

export function registerPortalDocumentRoutes(
  app: FastifyInstance,
  deps: { db: TDb; storage: TStorage; maxBytes: number },
) {
  const { db, storage, maxBytes } = deps;

  app.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);

    /**
     * POST /api/clientportal/upload?clientId=…[&folderId=…][&taskId=…]: one file per request, into a
     * folder the portal shows (the top when none is named), or attached to one of the client's tasks.
     * Streamed with the staff route's machinery: the size limit holds while the bytes arrive.
     */
    scoped.post(PORTAL_UPLOAD_PATH, { config: { auth: 'portal' } }, async (req, reply) => {
      const raw = (req.query ?? {}) as Record<string, unknown>;
      const access = routePortalAccess(req, raw.clientId);
      const query = ZUploadQuery.safeParse(raw);
      if (!query.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Folder not found' });
      const meta = requestMeta(req);
      const folderId = (await portalUploadTarget(db, access, query.data)).id;
      const received = await receiveUpload(req, { storage, maxBytes }, access.orgId);
      if (!received) return reply;
      try {
        const result = await recordPortalUpload(
          db,
          access,
          { folderId, taskId: query.data.taskId },
          received,
          meta,
        );
        return reply.code(201).send(result);
      } catch (error) {
        await storage.delete(received.storageKey).catch(() => {});
        throw error;
      }
    });
  });

  /** GET /api/clientportal/:clientId/documents/:id/download: a file the portal shows, as an attachment. */
  app.get(
    '/api/clientportal/:clientId/documents/:id/download',
    { config: { auth: 'portal' } },
    async (req, reply) => {
      const params = ZDownloadParams.safeParse(req.params);
      const access = routePortalAccess(req, params.success ? params.data.clientId : undefined);
      if (!params.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });
      const found = await portalVersionForDownload(db, access, params.data.id, requestMeta(req));
      return sendStoredFile(req, reply, storage, found, 'download');
    },
  );
}
