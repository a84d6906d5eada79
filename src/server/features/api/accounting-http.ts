import { TRPCError } from '@trpc/server';
import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNTING_EXPORT_PATH,
  accountingCsv,
  ledgersOf,
  type TAccountingDocument,
  tallyXml,
  voucherOf,
  ZAccountingExportQuery,
} from '../../../domain/accounting-export';
import { createFormatter } from '../../../domain/format';
import { actorOf, requestMeta, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import { billingSettings, clients, invoiceLines, invoices, orgs, payments } from '../../db/schema';
import { contentDisposition } from '../../http/content-disposition';
import { clientVisibility } from '../clients';
import { audit } from '../system-log';

// The accounting export (issue 40): a period's issued invoices and credit notes (by issue date) and
// its receipts and refunds (by date received, reversed ones left out), as Tally XML vouchers or a CSV
// journal (domain/accounting-export.ts). Whoever sees billing may take it; a member limited to
// assigned clients gets only theirs. Logged, like every export.

const MAX_DOCUMENTS = 50_000;

export function registerAccountingExport(app: FastifyInstance, deps: { db: TDb }) {
  app.get(
    ACCOUNTING_EXPORT_PATH,
    { config: { auth: { staff: 'billing.view' }, link: 'billing.accountingExport' } },
    async (req, reply) => {
      const scope = routeStaffScope(req);
      const parsed = ZAccountingExportQuery.safeParse(req.query);
      if (!parsed.success)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: parsed.error.issues[0]?.message ?? 'Check the period',
        });
      const { from, to, format } = parsed.data;
      const [org] = await deps.db
        .select({
          country: orgs.country,
          timeZone: orgs.timeZone,
          currency: orgs.currency,
          ledgerNames: billingSettings.ledgerNames,
        })
        .from(orgs)
        .leftJoin(billingSettings, eq(billingSettings.orgId, orgs.id))
        .where(eq(orgs.id, scope.orgId));
      if (!org) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
      const digits = createFormatter(org).currencyDigits;
      const visible = clientVisibility(scope, invoices.clientId);
      const inPeriod = and(
        eq(invoices.orgId, scope.orgId),
        inArray(invoices.status, ['issued', 'sent', 'partly_paid', 'paid']),
        gte(invoices.issueDate, from),
        lte(invoices.issueDate, to),
        visible,
      );
      const docs = await deps.db
        .select({
          id: invoices.id,
          kind: invoices.kind,
          date: invoices.issueDate,
          number: invoices.number,
          billTo: invoices.billTo,
          clientCode: clients.code,
          clientName: clients.name,
          subtotal: invoices.subtotal,
          tax: invoices.taxTotal,
          roundOff: invoices.roundOff,
          total: invoices.total,
        })
        .from(invoices)
        .innerJoin(clients, and(eq(clients.orgId, invoices.orgId), eq(clients.id, invoices.clientId)))
        .where(inPeriod)
        .orderBy(asc(invoices.issueDate), asc(invoices.number))
        .limit(MAX_DOCUMENTS);
      // The GST each invoice charged, by kind, in one statement for the period (not one per invoice).
      const splits = await deps.db
        .select({
          invoiceId: invoiceLines.invoiceId,
          cgst: sql<string>`sum(${invoiceLines.cgst})`,
          sgst: sql<string>`sum(${invoiceLines.sgst})`,
          igst: sql<string>`sum(${invoiceLines.igst})`,
        })
        .from(invoiceLines)
        .innerJoin(
          invoices,
          and(eq(invoices.orgId, invoiceLines.orgId), eq(invoices.id, invoiceLines.invoiceId)),
        )
        .where(and(eq(invoiceLines.orgId, scope.orgId), inPeriod))
        .groupBy(invoiceLines.invoiceId);
      const taxesOf = new Map(
        splits.map((t) => [
          t.invoiceId,
          { cgst: Number(t.cgst), sgst: Number(t.sgst), igst: Number(t.igst) },
        ]),
      );
      const money = await deps.db
        .select({
          kind: payments.kind,
          date: payments.receivedOn,
          id: payments.id,
          reference: payments.reference,
          clientCode: clients.code,
          clientName: clients.name,
          amount: payments.amount,
          tds: payments.tdsAmount,
          bankCharges: payments.bankCharges,
        })
        .from(payments)
        .innerJoin(clients, and(eq(clients.orgId, payments.orgId), eq(clients.id, payments.clientId)))
        .where(
          and(
            eq(payments.orgId, scope.orgId),
            isNull(payments.reversedAt),
            gte(payments.receivedOn, from),
            lte(payments.receivedOn, to),
            clientVisibility(scope, payments.clientId),
          ),
        )
        .orderBy(asc(payments.receivedOn), asc(payments.id))
        .limit(MAX_DOCUMENTS);
      const documents: TAccountingDocument[] = [
        ...docs.map((d) => ({
          kind: d.kind === 'credit_note' ? ('credit_note' as const) : ('invoice' as const),
          date: d.date ?? from,
          number: d.number ?? '',
          partyCode: d.billTo?.code ?? d.clientCode,
          party: d.billTo?.name ?? d.clientName,
          subtotal: d.subtotal,
          tax: d.tax,
          taxes: taxesOf.get(d.id) ?? { cgst: 0, sgst: 0, igst: 0 },
          roundOff: d.roundOff,
          total: d.total,
        })),
        ...money.map((p) => ({
          kind: p.kind === 'refund' ? ('refund' as const) : ('receipt' as const),
          date: p.date,
          number: `${p.kind === 'refund' ? 'RFND' : 'RCPT'}-${p.id.slice(-8).toUpperCase()}`,
          partyCode: p.clientCode,
          party: p.clientName,
          amount: p.amount,
          tds: p.tds,
          bankCharges: p.bankCharges,
          reference: p.reference,
        })),
      ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const ledgers = ledgersOf(org.ledgerNames);
      const vouchers = documents.map((d) => voucherOf(d, ledgers));
      await audit(deps.db, actorOf(scope, requestMeta(req)), {
        action: 'billing.accounting_export',
        recordType: 'invoice',
        summary: `Exported ${vouchers.length} vouchers for ${from} to ${to} (${format === 'tally' ? 'Tally XML' : 'CSV'})`,
      });
      const name = `accounting-${from}-to-${to}.${format === 'tally' ? 'xml' : 'csv'}`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', contentDisposition('attachment', name))
        .type(format === 'tally' ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8')
        .send(format === 'tally' ? tallyXml(vouchers, digits) : accountingCsv(vouchers, digits));
    },
  );
}
