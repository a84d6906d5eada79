import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MESSAGE_UPLOAD_PATH, PORTAL_MESSAGE_UPLOAD_PATH } from '../../../domain/messages';
import { actorOf, portalActorOf, requestMeta, routePortalAccess, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import { clients } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { receiveUpload, registerMultipart, sendStoredFile } from '../documents';
import { audit } from '../system-log';
import { portalThread, type TThreadRow, threadNotFound, visibleThread } from './access';
import { messagesFolder, portalAttachment, recordAttachment, staffAttachment } from './attachments';

const ZStaffUpload = z.object({ threadId: z.uuid() });
const ZPortalUpload = z.object({ clientId: z.uuid(), threadId: z.uuid() });
const ZStaffFile = z.object({ id: z.uuid() });
const ZPortalFile = z.object({ clientId: z.uuid(), id: z.uuid() });
const fileNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

async function clientName(db: TDb, orgId: string, clientId: string) {
  const [row] = await db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId)));
  return row?.name ?? '';
}

/**
 * A message's files: uploaded one per request before the message is sent (each with its own
 * progress), streamed with the documents' machinery; downloaded by the thread's people only.
 */
export function registerMessageRoutes(
  app: FastifyInstance,
  deps: { db: TDb; storage: TStorage; maxBytes: number },
) {
  const { db, storage, maxBytes } = deps;

  /** Streams the file into the client's Messages folder and records it on the thread, staff or portal. */
  async function receiveInto(
    req: FastifyRequest,
    reply: FastifyReply,
    thread: TThreadRow,
    orgId: string,
    who: Pick<Parameters<typeof recordAttachment>[1], 'by' | 'actor' | 'recheck'>,
  ) {
    const folderId = await messagesFolder(
      db,
      orgId,
      thread.clientId,
      await clientName(db, orgId, thread.clientId),
    );
    const received = await receiveUpload(req, { storage, maxBytes }, orgId);
    if (!received) return reply;
    try {
      const saved = await recordAttachment(db, { thread, folderId, upload: received, ...who });
      return reply.code(201).send(saved);
    } catch (error) {
      await storage.delete(received.storageKey).catch(() => {});
      throw error;
    }
  }

  app.register(async (scoped) => {
    await registerMultipart(scoped, maxBytes);

    // POST /api/messages/upload?threadId=…: a member's file for their next message in the thread.
    scoped.post(
      MESSAGE_UPLOAD_PATH,
      { config: { auth: { staff: 'documents.create' } } },
      async (req, reply) => {
        const scope = routeStaffScope(req);
        const query = ZStaffUpload.safeParse(req.query ?? {});
        if (!query.success) throw threadNotFound();
        const thread = await visibleThread(db, scope, query.data.threadId);
        return receiveInto(req, reply, thread, scope.orgId, {
          by: { memberId: scope.memberId },
          actor: actorOf(scope, requestMeta(req)),
          recheck: (tx) => visibleThread(tx, scope, thread.id),
        });
      },
    );

    // POST /api/clientportal/messages/upload?clientId=…&threadId=…: the same from the portal (a phone's
    // camera or files), for a thread the person is on.
    scoped.post(PORTAL_MESSAGE_UPLOAD_PATH, { config: { auth: 'portal' } }, async (req, reply) => {
      const raw = (req.query ?? {}) as Record<string, unknown>;
      const access = routePortalAccess(req, raw.clientId);
      const query = ZPortalUpload.safeParse(raw);
      if (!query.success) throw threadNotFound();
      const thread = await portalThread(db, access, query.data.threadId);
      return receiveInto(req, reply, thread, access.orgId, {
        by: { clientUserId: access.clientUserId },
        actor: portalActorOf(access, requestMeta(req)),
        recheck: (tx) => portalThread(tx, access, thread.id),
      });
    });
  });

  // GET /api/messages/attachments/{documentId}/download (staff, by signed link): each read logged.
  app.get(
    '/api/messages/attachments/:id/download',
    { config: { auth: { staff: 'clients.view' }, link: 'messages.attachmentDownload' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const params = ZStaffFile.safeParse(req.params);
      if (!params.success) throw fileNotFound();
      const found = await staffAttachment(db, scope, params.data.id);
      await db.transaction((tx) =>
        audit(tx, actorOf(scope, requestMeta(req)), {
          action: 'message.attachment.download',
          recordType: 'messageThread',
          recordId: found.thread.id,
          summary: `Downloaded “${found.doc.name}” of the conversation “${found.thread.subject}”`,
        }),
      );
      return sendStoredFile(req, reply, storage, found, 'download');
    },
  );

  // GET /api/clientportal/{clientId}/messages/attachments/{documentId}/download (portal cookie).
  app.get(
    '/api/clientportal/:clientId/messages/attachments/:id/download',
    { config: { auth: 'portal' } },
    async (req, reply) => {
      const params = ZPortalFile.safeParse(req.params);
      const access = routePortalAccess(req, params.success ? params.data.clientId : undefined);
      if (!params.success) throw fileNotFound();
      const found = await portalAttachment(db, access, params.data.id);
      await db.transaction((tx) =>
        audit(tx, portalActorOf(access, requestMeta(req)), {
          action: 'message.attachment.download',
          recordType: 'messageThread',
          recordId: found.thread.id,
          summary: `Downloaded “${found.doc.name}” of the conversation “${found.thread.subject}” in the client portal`,
        }),
      );
      return sendStoredFile(req, reply, storage, found, 'download');
    },
  );
}
