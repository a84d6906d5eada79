import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PORTAL_UPLOAD_PATH } from '../../../domain/client-portal';
import type { TDb } from '../../db/client';
import type { TStorage } from '../../files/storage';
import { portalSessionToken, resolvePortalSession, type TPortalClientAccess } from '../../portal/session';
import { requestMeta, sendError } from '../documents/http-auth';
import { sendStoredFile } from '../documents/routes';
import { receiveUpload, registerMultipart } from '../documents/upload-stream';
import { portalUploadTarget, portalVersionForDownload, recordPortalUpload } from './documents';

const ZUploadQuery = z.object({
  clientId: z.uuid(),
  folderId: z.uuid().optional(),
  taskId: z.uuid().optional(),
});
const ZDownloadParams = z.object({ clientId: z.uuid(), id: z.uuid() });

/**
 * The portal's file routes authenticate only by the portal session cookie (httpOnly, sameSite
 * strict), exactly as portalClientProcedure does: a staff Bearer token is never read here, so it
 * opens nothing. A client the session does not reach answers NOT_FOUND.
 */
async function portalAccessFor(
  db: TDb,
  req: FastifyRequest,
  reply: FastifyReply,
  clientId: string | undefined,
): Promise<TPortalClientAccess | null> {
  const session = await resolvePortalSession(db, portalSessionToken(req));
  if (!session) {
    sendError(reply, new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to the client portal' }));
    return null;
  }
  const access = session.clients.find((c) => c.clientId === clientId);
  if (!access) {
    sendError(reply, new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' }));
    return null;
  }
  return access;
}

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
    scoped.post(PORTAL_UPLOAD_PATH, async (req, reply) => {
      const raw = (req.query ?? {}) as Record<string, unknown>;
      const access = await portalAccessFor(
        db,
        req,
        reply,
        typeof raw.clientId === 'string' ? raw.clientId : undefined,
      );
      if (!access) return reply;
      const query = ZUploadQuery.safeParse(raw);
      if (!query.success) {
        return sendError(reply, new TRPCError({ code: 'NOT_FOUND', message: 'Folder not found' }));
      }
      const meta = requestMeta(req);
      let folderId: string;
      try {
        folderId = (await portalUploadTarget(db, access, query.data, meta)).id;
      } catch (error) {
        return sendError(reply, error);
      }
      const received = await receiveUpload(req, reply, { storage, maxBytes }, access.orgId);
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
        return sendError(reply, error);
      }
    });
  });

  /** GET /api/clientportal/:clientId/documents/:id/download: a file the portal shows, as an attachment. */
  app.get('/api/clientportal/:clientId/documents/:id/download', async (req, reply) => {
    const params = ZDownloadParams.safeParse(req.params);
    const access = await portalAccessFor(db, req, reply, params.success ? params.data.clientId : undefined);
    if (!access) return reply;
    if (!params.success) {
      return sendError(reply, new TRPCError({ code: 'NOT_FOUND', message: 'File not found' }));
    }
    try {
      const found = await portalVersionForDownload(db, access, params.data.id, requestMeta(req));
      return await sendStoredFile(req, reply, storage, found, 'download');
    } catch (error) {
      return sendError(reply, error);
    }
  });
}
