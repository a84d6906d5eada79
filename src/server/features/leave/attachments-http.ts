import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LEAVE_ATTACHMENT_MAX_BYTES, LEAVE_ATTACHMENT_UPLOAD_PATH } from '../../../domain/leave';
import { requestMeta, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import type { TStorage } from '../../files/storage';
import { receiveUpload, registerMultipart, sendStoredFile } from '../documents';
import { leaveAttachmentForDownload, recordLeaveAttachment } from './attachments';

const ZAttachmentParams = z.object({ id: z.uuid() });

/**
 * POST /api/leave/attachments: one file, streamed to storage by the documents' upload machinery
 * (size limit while the bytes arrive, checksum, type from content), answering the attachment the
 * request will name. GET /api/leave/attachments/{id}/download|preview: the file, for its member and
 * whoever decides their leave.
 */
export function registerLeaveAttachmentRoutes(app: FastifyInstance, deps: { db: TDb; storage: TStorage }) {
  const { db, storage } = deps;

  app.register(async (scoped) => {
    await registerMultipart(scoped, LEAVE_ATTACHMENT_MAX_BYTES);
    scoped.post(
      LEAVE_ATTACHMENT_UPLOAD_PATH,
      { config: { auth: { staff: 'leaves.create' } } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const received = await receiveUpload(
          req,
          { storage, maxBytes: LEAVE_ATTACHMENT_MAX_BYTES },
          scope.orgId,
        );
        if (!received) return reply;
        try {
          return reply.code(201).send(await recordLeaveAttachment(db, scope, received, requestMeta(req)));
        } catch (error) {
          await storage.delete(received.storageKey).catch(() => {});
          throw error;
        }
      },
    );
  });

  // A manager decides their team's leave without holding a leave permission: the service checks.
  const serve = (purpose: 'download' | 'preview') =>
    app.get(
      `${LEAVE_ATTACHMENT_UPLOAD_PATH}/:id/${purpose}`,
      {
        config: {
          auth: { staff: null },
          link: purpose === 'download' ? 'leave.attachmentDownload' : 'leave.attachmentPreview',
        },
      },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const params = ZAttachmentParams.safeParse(req.params);
        if (!params.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Attachment not found' });
        const found = await leaveAttachmentForDownload(db, scope, params.data.id, purpose, requestMeta(req));
        return sendStoredFile(req, reply, storage, found, purpose);
      },
    );
  serve('download');
  serve('preview');
}
