import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PAYMENT_METHOD_LABELS, type TPaymentMethod } from '../../../../domain/billing/constants';
import { ZStatementInput } from '../../../../domain/billing/payments';
import { localeForCountry } from '../../../../domain/format';
import type { TLogoContentType } from '../../../../domain/settings';
import { actorOf, requestMeta, routeStaffScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { clients, orgLogos, orgs } from '../../../db/schema';
import { clientTaxIds, visibleClient } from '../../clients';
import { audit } from '../../system-log';
import { renderStatementPdf, type TStatementPdfModel, type TStatementPdfRow } from '../pdf';
import { clientStatement, type TStatementEntry } from './service';

/** GET /api/billing/clients/{clientId}/statement.pdf?from=&to= */
export const STATEMENT_PDF_PATH = '/api/billing/clients/:clientId/statement.pdf';

const addressLines = (a: {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country?: string | null;
}) => {
  const cityLine = [a.city, a.region, a.postalCode].filter(Boolean).join(', ');
  return [a.addressLine1, a.addressLine2, cityLine, a.country].filter((l): l is string => !!l);
};

const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);

const methodOf = (detail: string) => PAYMENT_METHOD_LABELS[detail as TPaymentMethod] ?? detail;

/** A statement entry as the PDF's five kinds of row write it: the extra kinds say what they are in the reference. */
function pdfRow(e: TStatementEntry): TStatementPdfRow {
  const amounts = { date: e.date, debitMinor: e.debit, creditMinor: e.credit, balanceMinor: e.balance };
  switch (e.kind) {
    case 'invoice':
      return { ...amounts, type: 'invoice', reference: e.reference };
    case 'credit_note':
      return {
        ...amounts,
        type: 'credit_note',
        reference: e.detail ? `${e.reference} against ${e.detail}` : e.reference,
      };
    case 'payment':
      return {
        ...amounts,
        type: 'payment',
        reference: [methodOf(e.detail), e.reference].filter(Boolean).join(' · '),
      };
    case 'tds':
      return {
        ...amounts,
        type: 'tds',
        reference: [e.detail ? `Section ${e.detail}` : '', e.reference].filter(Boolean).join(' · '),
      };
    case 'bank_charges':
      return {
        ...amounts,
        type: 'payment',
        reference: ['Bank charges', e.reference].filter(Boolean).join(' · '),
      };
    case 'refund':
      return {
        ...amounts,
        type: 'refund',
        reference: [methodOf(e.detail), e.reference].filter(Boolean).join(' · '),
      };
    case 'payment_reversed':
      return {
        ...amounts,
        type: 'payment',
        reference: `Reversed${e.reference ? ` ${e.reference}` : ''}: ${e.detail}`,
      };
    case 'refund_reversed':
      return {
        ...amounts,
        type: 'refund',
        reference: `Reversed${e.reference ? ` ${e.reference}` : ''}: ${e.detail}`,
      };
  }
}

/** The statement as the PDF prints it: the firm's and the client's heads around clientStatement's rows. */
export async function statementPdfModel(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  from: string,
  to: string,
): Promise<TStatementPdfModel> {
  const statement = await clientStatement(tx, orgId, clientId, from, to);
  const [[firm], [client], [logo]] = await Promise.all([
    tx.select().from(orgs).where(eq(orgs.id, orgId)),
    tx
      .select()
      .from(clients)
      .where(and(eq(clients.orgId, orgId), eq(clients.id, clientId))),
    tx.select().from(orgLogos).where(eq(orgLogos.orgId, orgId)),
  ]);
  if (!firm || !client) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return {
    locale: localeForCountry(firm.country),
    currency: statement.currency,
    firm: {
      name: firm.name,
      legalName: firm.legalName,
      addressLines: addressLines(firm),
      taxIds: firm.taxIds,
      logo: logo ? { bytes: logo.bytes, contentType: logo.contentType as TLogoContentType } : null,
    },
    client: {
      name: client.name,
      code: client.code,
      addressLines: addressLines(client),
      taxIds: await clientTaxIds(tx, orgId, client.id, client.taxIds),
    },
    from,
    to,
    openingBalanceMinor: statement.openingBalance,
    rows: statement.entries.map(pdfRow),
    closingBalanceMinor: statement.closingBalance,
    aging: {
      currentMinor: statement.aging.current,
      days1To30Minor: statement.aging.d1_30,
      days31To60Minor: statement.aging.d31_60,
      days61To90Minor: statement.aging.d61_90,
      over90Minor: statement.aging.d90_plus,
    },
  };
}

/**
 * The statement of a client the caller may see, as a PDF (billing.view). Opened by a signed link
 * from the statement screen, so the browser shows or saves it itself. Each one made is logged.
 */
export function registerStatementPdfRoute(app: FastifyInstance, deps: { db: TDb }) {
  app.get(
    STATEMENT_PDF_PATH,
    { config: { auth: { staff: 'billing.view' }, link: 'billing.statementPdf' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const params = req.params as { clientId?: string };
      const query = (req.query ?? {}) as Record<string, unknown>;
      const parsed = ZStatementInput.safeParse({ clientId: params.clientId, from: query.from, to: query.to });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        if (issue?.path[0] === 'clientId')
          throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
        return reply
          .code(400)
          .send({ error: 'BAD_REQUEST', message: issue?.message ?? 'The period is not valid' });
      }
      const { clientId, from, to } = parsed.data;
      const client = await visibleClient(deps.db, scope, clientId);
      const model = await statementPdfModel(deps.db, scope.orgId, clientId, from, to);
      const pdf = await renderStatementPdf(model);
      await deps.db.transaction((tx) =>
        audit(tx, actorOf(scope, requestMeta(req)), {
          action: 'statement.pdf',
          recordType: 'client',
          recordId: client.id,
          summary: `Made ${client.name}'s statement from ${from} to ${to} as a PDF`,
        }),
      );
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          `inline; filename="statement-${fileSafe(client.code || client.name)}-${from}-${to}.pdf"`,
        )
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
