import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { ZSignerSession } from '../../../domain/proposals';
import type { TDb } from '../../db/client';
import type { TStorage } from '../../files/storage';
import { sendStoredFile } from '../documents';
import { bySession, sourceFile } from './signing';

// GET /api/signing/:proposalId/:signerId/document?t=…&s=…: the file a signature request asks the
// signer to sign, at the version sent, for the signing page to open. Only with the signer's link
// and a live session (after the mailed code); anything else answers the link's NOT_FOUND.

export function registerSigningRoutes(app: FastifyInstance, deps: { db: TDb; storage: TStorage }) {
  app.get(
    '/api/signing/:proposalId/:signerId/document',
    { config: { auth: 'public' } },
    async (req, reply) => {
      const params = (req.params ?? {}) as Record<string, string>;
      const query = (req.query ?? {}) as Record<string, string>;
      const input = ZSignerSession.safeParse({
        proposalId: params.proposalId,
        signerId: params.signerId,
        token: query.t,
        session: query.s,
      });
      if (!input.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'This link is not valid' });
      const { proposal } = await bySession(deps.db, input.data);
      const file = proposal.kind === 'document' ? await sourceFile(deps.db, proposal) : null;
      if (!file) throw new TRPCError({ code: 'NOT_FOUND', message: 'The document is no longer available' });
      return sendStoredFile(req, reply, deps.storage, file, query.download ? 'download' : 'preview');
    },
  );
}
