import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requestMeta, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import type { TStorage } from '../../files/storage';
import { contentDisposition } from '../../http/content-disposition';
import { downloadableExport, logExportDownload } from './service';

const ZParams = z.object({ id: z.uuid() });

/** GET /api/firm-exports/:id/download: the zip, streamed from the file store (owner only). */
export function registerFirmExportRoutes(app: FastifyInstance, deps: { db: TDb; storage: TStorage }) {
  app.get(
    '/api/firm-exports/:id/download',
    { config: { auth: { staff: null }, link: 'firmExport.download' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const params = ZParams.safeParse(req.params);
      if (!params.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Export not found' });
      const row = await downloadableExport(deps.db, scope, params.data.id);
      const body = await deps.storage.get(row.storageKey);
      if (!body) {
        req.log.error({ exportId: row.id }, 'stored export is missing');
        throw new TRPCError({ code: 'NOT_FOUND', message: 'Export not found' });
      }
      await logExportDownload(deps.db, scope, row.id, requestMeta(req));
      const day = row.createdAt.toISOString().slice(0, 10);
      reply
        .code(200)
        .type('application/zip')
        .header('content-disposition', contentDisposition('attachment', `firm-export-${day}.zip`))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (row.size) reply.header('content-length', String(row.size));
      return reply.send(body);
    },
  );
}
