import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { routeStaffScope } from '../../../auth';
import type { TDb } from '../../../db/client';
import { contentDisposition } from '../../../http/content-disposition';
import { renderInvoicePdf } from '../pdf';
import { visibleInvoice } from './access';
import { invoiceFileName, invoicePdfModel } from './pdf-model';

const ZParams = z.object({ id: z.uuid() });

/**
 * GET /api/billing/invoices/:id/pdf: the invoice or credit note as a PDF, made from the database as
 * the screen shows it (a draft prints DRAFT, a void one VOID), for a member who may see its client.
 */
export function registerInvoicePdfRoute(app: FastifyInstance, deps: { db: TDb }) {
  app.get(
    '/api/billing/invoices/:id/pdf',
    { config: { auth: { staff: 'billing.view' }, link: 'billing.invoicePdf' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const params = ZParams.safeParse(req.params);
      if (!params.success) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });
      const invoice = await visibleInvoice(deps.db, scope, params.data.id);
      const pdf = await renderInvoicePdf(await invoicePdfModel(deps.db, scope.orgId, invoice.id));
      return reply
        .code(200)
        .type('application/pdf')
        .header('content-disposition', contentDisposition('attachment', invoiceFileName(invoice.number)))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
