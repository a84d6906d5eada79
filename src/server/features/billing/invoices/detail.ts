import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { documentStatus } from '../../../../domain/billing/invoices';
import { invoiceTotals } from '../../../../domain/billing/totals';
import { todayIn } from '../../../../domain/days';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import {
  allocations,
  clients,
  invoiceDeliveries,
  invoiceLines,
  invoices,
  members,
  payments,
  services,
  systemLog,
  timesheetEntries,
} from '../../../db/schema';
import { memberName } from '../../../db/sql';
import { billingContext } from '../context';
import { visibleInvoice } from './access';
import { recipientsOf } from './recipients';
import { shownTaxContext } from './taxes';

/** What each line bills in time: how many entries and minutes (a custom or fee line has none). */
async function timeOfLines(db: TExecutor, orgId: string, lineIds: string[]) {
  if (!lineIds.length) return new Map<string, { entries: number; minutes: number }>();
  const rows = await db
    .select({
      lineId: timesheetEntries.invoiceLineId,
      entries: sql<number>`count(*)::int`,
      minutes: sql<number>`coalesce(sum(${timesheetEntries.minutes}), 0)::int`,
    })
    .from(timesheetEntries)
    .where(and(eq(timesheetEntries.orgId, orgId), inArray(timesheetEntries.invoiceLineId, lineIds)))
    .groupBy(timesheetEntries.invoiceLineId);
  return new Map(rows.map((r) => [r.lineId ?? '', { entries: r.entries, minutes: r.minutes }]));
}

/** Money applied to this invoice (payments, credit notes), or, for a credit note, where it went. */
function allocationsOf(db: TExecutor, orgId: string, invoice: { id: string; kind: string }) {
  const other = invoice.kind === 'credit_note' ? allocations.invoiceId : allocations.creditNoteId;
  return db
    .select({
      id: allocations.id,
      amount: allocations.amount,
      allocatedOn: allocations.allocatedOn,
      reversedAt: allocations.reversedAt,
      invoiceId: allocations.invoiceId,
      paymentId: allocations.paymentId,
      creditNoteId: allocations.creditNoteId,
      paymentMethod: payments.method,
      paymentReference: payments.reference,
      paymentReceivedOn: payments.receivedOn,
      /** The other document's number: the credit note applied here, or the invoice a credit note settled. */
      otherNumber: sql<string | null>`(select o.number from ${invoices} o
        where o.org_id = ${allocations.orgId} and o.id = ${other})`,
    })
    .from(allocations)
    .leftJoin(payments, and(eq(payments.orgId, allocations.orgId), eq(payments.id, allocations.paymentId)))
    .where(
      and(
        eq(allocations.orgId, orgId),
        invoice.kind === 'credit_note'
          ? eq(allocations.creditNoteId, invoice.id)
          : eq(allocations.invoiceId, invoice.id),
      ),
    )
    .orderBy(asc(allocations.allocatedOn), asc(allocations.createdAt));
}

/**
 * One invoice as its page shows it: the document (lines, taxes, totals, what was paid), what it
 * needs to be edited while a draft (tax context, defaults), and what happened to it (money
 * allocated, credit notes, mailings, the system log's rows about it).
 */
export async function getInvoice(db: TExecutor, scope: TScope, invoiceId: string) {
  const invoice = await visibleInvoice(db, scope, invoiceId);
  const ctx = await billingContext(db, scope.orgId);
  const today = todayIn(ctx.firm.timeZone);
  const [client] = await db
    .select({ id: clients.id, name: clients.name, code: clients.code, email: clients.email })
    .from(clients)
    .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, invoice.clientId)));
  const lines = await db
    .select({
      id: invoiceLines.id,
      kind: invoiceLines.kind,
      description: invoiceLines.description,
      serviceId: invoiceLines.serviceId,
      serviceName: services.name,
      engagementId: invoiceLines.engagementId,
      periodStart: invoiceLines.periodStart,
      taxCode: invoiceLines.taxCode,
      quantityMilli: invoiceLines.quantityMilli,
      rate: invoiceLines.rate,
      discount: invoiceLines.discount,
      amount: invoiceLines.amount,
      standardValue: invoiceLines.standardValue,
      taxRateBp: invoiceLines.taxRateBp,
      cgst: invoiceLines.cgst,
      sgst: invoiceLines.sgst,
      igst: invoiceLines.igst,
      otherTax: invoiceLines.otherTax,
    })
    .from(invoiceLines)
    .leftJoin(services, and(eq(services.orgId, invoiceLines.orgId), eq(services.id, invoiceLines.serviceId)))
    .where(and(eq(invoiceLines.orgId, scope.orgId), eq(invoiceLines.invoiceId, invoice.id)))
    .orderBy(asc(invoiceLines.position));
  const taxContext = shownTaxContext(ctx, invoice, lines);
  const [time, money, creditNotes, deliveries, history, recipients, creditFor] = await Promise.all([
    timeOfLines(
      db,
      scope.orgId,
      lines.filter((l) => l.kind === 'time').map((l) => l.id),
    ),
    allocationsOf(db, scope.orgId, invoice),
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        status: invoices.status,
        issueDate: invoices.issueDate,
        total: invoices.total,
      })
      .from(invoices)
      .where(and(eq(invoices.orgId, scope.orgId), eq(invoices.creditForId, invoice.id)))
      .orderBy(asc(invoices.createdAt)),
    db
      .select({
        id: invoiceDeliveries.id,
        email: invoiceDeliveries.email,
        status: invoiceDeliveries.status,
        error: invoiceDeliveries.error,
        sentAt: invoiceDeliveries.sentAt,
        createdAt: invoiceDeliveries.createdAt,
      })
      .from(invoiceDeliveries)
      .where(and(eq(invoiceDeliveries.orgId, scope.orgId), eq(invoiceDeliveries.invoiceId, invoice.id)))
      .orderBy(desc(invoiceDeliveries.createdAt), asc(invoiceDeliveries.email))
      .limit(100),
    db
      .select({
        id: systemLog.id,
        at: systemLog.at,
        action: systemLog.action,
        summary: systemLog.summary,
        actorKind: systemLog.actorKind,
        actorName: memberName,
      })
      .from(systemLog)
      .leftJoin(members, and(eq(members.orgId, systemLog.orgId), eq(members.id, systemLog.actorMemberId)))
      .where(
        and(
          eq(systemLog.orgId, scope.orgId),
          eq(systemLog.recordType, 'invoice'),
          eq(systemLog.recordId, invoice.id),
        ),
      )
      .orderBy(desc(systemLog.at), desc(systemLog.id))
      .limit(100),
    recipientsOf(db, scope.orgId, invoice.clientId),
    invoice.creditForId
      ? db
          .select({ id: invoices.id, number: invoices.number })
          .from(invoices)
          .where(and(eq(invoices.orgId, scope.orgId), eq(invoices.id, invoice.creditForId)))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
  ]);
  return {
    invoice: { ...invoice, displayStatus: documentStatus(invoice, today) },
    client: client ?? { id: invoice.clientId, name: '', code: '', email: null },
    lines: lines.map((l) => ({ ...l, time: time.get(l.id) ?? null })),
    taxes: invoiceTotals(lines, taxContext).taxes,
    taxContext: { ...taxContext, firmState: ctx.firmState },
    defaults: { dueDays: ctx.settings.dueDays, defaultTaxRateBp: ctx.settings.defaultTaxRateBp },
    creditFor,
    creditNotes,
    allocations: money,
    deliveries,
    history,
    recipients,
    today,
  };
}
