import type { FastifyInstance } from 'fastify';
import type { TDb } from '../../db/client';
import { registerPaymentExport } from './payments/export-http';
import { registerStatementPdfRoute } from './statements/pdf';

/** Billing's plain HTTP routes (files: exports and PDFs), beside its tRPC procedures. */
export function registerBillingRoutes(app: FastifyInstance, deps: { db: TDb }) {
  registerPaymentExport(app, deps);
  registerStatementPdfRoute(app, deps);
}
