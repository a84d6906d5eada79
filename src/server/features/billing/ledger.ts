import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TInvoiceKind, TInvoiceStatus, TLineKind } from '../../../domain/billing/constants';
import type { TLineValues } from '../../../domain/billing/schemas';
import { settledStatus } from '../../../domain/billing/status';
import { invoiceTotals } from '../../../domain/billing/totals';
import type { TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { allocations, disbursements, invoiceLines, invoices, timesheetEntries } from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { emitWebhookEvent } from '../webhooks';
import { billingContext, supplyOf, type TBillingContext, taxContextOf } from './context';

// The invoice ledger's core: drafts and their lines, the totals written back, and the balances that
// payments and credit notes move. Every write here runs inside the caller's transaction; the caller
// checks the permission, the client's visibility and writes the system log.

/** A line as billing makes it: what a person edits, plus what it bills. */
export type TDraftLine = TLineValues & {
  kind?: TLineKind;
  projectId?: string | null;
  engagementId?: string | null;
  periodStart?: string | null;
  /** What the billed work is worth at standard (time at its rates, the fee, the cost). */
  standardValue?: number;
  /** Approved billable time of the client, not yet billed: linked to the line, or a CONFLICT. */
  timeEntryIds?: string[];
  disbursementIds?: string[];
};

export const ALREADY_BILLED =
  'Some of this work has been billed already: refresh work in progress and try again';
export const PERIOD_BILLED = "This period's fee is billed already";

export type TInvoiceRow = typeof invoices.$inferSelect;

/** The invoice, locked for the change; NOT_FOUND when it is not this firm's. */
export async function invoiceForUpdate(
  tx: TExecutor,
  orgId: string,
  invoiceId: string,
): Promise<TInvoiceRow> {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
    .for('update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });
  return row;
}

export function requireDraft(invoice: TInvoiceRow): void {
  if (invoice.status !== 'draft') {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'An issued invoice cannot be changed: raise a credit note to correct it',
    });
  }
}

export async function createDraft(
  tx: TExecutor,
  orgId: string,
  input: {
    clientId: string;
    lines: readonly TDraftLine[];
    kind?: TInvoiceKind;
    notes?: string;
    creditForId?: string | null;
    recurring?: boolean;
    createdBy: string | null;
  },
  ctx?: TBillingContext,
): Promise<{ id: string }> {
  const c = ctx ?? (await billingContext(tx, orgId));
  const supply = await supplyOf(tx, c, orgId, input.clientId);
  const [row] = await tx
    .insert(invoices)
    .values({
      orgId,
      clientId: input.clientId,
      kind: input.kind ?? 'invoice',
      currency: c.firm.currency,
      taxRegime: c.settings.taxRegime,
      placeOfSupply: supply.placeOfSupply,
      zeroRated: supply.zeroRated,
      notes: input.notes ?? '',
      terms: c.settings.terms,
      creditForId: input.creditForId ?? null,
      recurring: input.recurring ?? false,
      createdBy: input.createdBy,
    })
    .returning({ id: invoices.id });
  if (!row) throw new Error('invoice not created');
  await insertLines(tx, orgId, row.id, input.clientId, input.lines, 0);
  await recomputeInvoice(tx, orgId, row.id, c);
  return row;
}

/** Adds lines after the draft's last one, linking what they bill. */
export async function appendLines(
  tx: TExecutor,
  orgId: string,
  invoice: Pick<TInvoiceRow, 'id' | 'clientId'>,
  lines: readonly TDraftLine[],
): Promise<void> {
  const [last] = await tx
    .select({ max: sql<number>`coalesce(max(${invoiceLines.position}), -1)::int` })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoice.id)));
  await insertLines(tx, orgId, invoice.id, invoice.clientId, lines, (last?.max ?? -1) + 1);
}

async function insertLines(
  tx: TExecutor,
  orgId: string,
  invoiceId: string,
  clientId: string,
  lines: readonly TDraftLine[],
  from: number,
): Promise<void> {
  for (const [i, line] of lines.entries()) {
    let inserted: { id: string } | undefined;
    try {
      // A savepoint: a second bill of the same fee period fails on its unique index, and the caller's
      // transaction must stay usable to say so.
      inserted = await tx.transaction(async (sp) => {
        const [r] = await sp
          .insert(invoiceLines)
          .values({
            orgId,
            invoiceId,
            position: from + i,
            kind: line.kind ?? 'custom',
            description: line.description,
            serviceId: line.serviceId,
            projectId: line.projectId ?? null,
            engagementId: line.engagementId ?? null,
            periodStart: line.periodStart ?? null,
            taxCode: line.taxCode,
            quantityMilli: line.quantityMilli,
            rate: line.rate,
            discount: line.discount,
            amount: 0,
            standardValue: line.standardValue ?? 0,
            taxRateBp: line.taxRateBp,
          })
          .returning({ id: invoiceLines.id });
        return r;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: PERIOD_BILLED });
      throw error;
    }
    if (!inserted) throw new Error('line not created');
    await linkTime(tx, orgId, clientId, inserted.id, line.timeEntryIds ?? []);
    await linkDisbursements(tx, orgId, clientId, inserted.id, line.disbursementIds ?? []);
  }
}

/** Links time to a line only if it is still unbilled, approved, billable and the client's. */
async function linkTime(tx: TExecutor, orgId: string, clientId: string, lineId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const linked = await tx
    .update(timesheetEntries)
    .set({ invoiceLineId: lineId })
    .where(
      and(
        eq(timesheetEntries.orgId, orgId),
        inArray(timesheetEntries.id, unique),
        eq(timesheetEntries.clientId, clientId),
        eq(timesheetEntries.status, 'approved'),
        eq(timesheetEntries.billable, true),
        isNull(timesheetEntries.invoiceLineId),
      ),
    )
    .returning({ id: timesheetEntries.id });
  if (linked.length !== unique.length) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_BILLED });
}

async function linkDisbursements(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  lineId: string,
  ids: string[],
) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const linked = await tx
    .update(disbursements)
    .set({ invoiceLineId: lineId })
    .where(
      and(
        eq(disbursements.orgId, orgId),
        inArray(disbursements.id, unique),
        eq(disbursements.clientId, clientId),
        isNull(disbursements.invoiceLineId),
      ),
    )
    .returning({ id: disbursements.id });
  if (linked.length !== unique.length) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_BILLED });
}

/**
 * Replaces a draft's lines with the edited list: a line with an id keeps what it bills and takes
 * the edits (a changed quantity or rate on billed time is a write-up or write-down against its
 * standard value); a line left out is deleted, and what it billed is back in WIP (the links are
 * ON DELETE SET NULL); a line without an id is new free text.
 */
export async function replaceDraftLines(
  tx: TExecutor,
  orgId: string,
  invoice: Pick<TInvoiceRow, 'id' | 'clientId'>,
  lines: readonly TLineValues[],
): Promise<void> {
  const existing = await tx
    .select({ id: invoiceLines.id })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoice.id)));
  const known = new Set(existing.map((l) => l.id));
  for (const line of lines) {
    if (line.id && !known.has(line.id))
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice line not found' });
  }
  const kept = new Set(lines.flatMap((l) => (l.id ? [l.id] : [])));
  const dropped = [...known].filter((id) => !kept.has(id));
  if (dropped.length) {
    await tx
      .delete(invoiceLines)
      .where(and(eq(invoiceLines.orgId, orgId), inArray(invoiceLines.id, dropped)));
  }
  // Positions are rewritten in the order given; new lines are inserted where they stand.
  for (const [position, line] of lines.entries()) {
    const fields = {
      position,
      description: line.description,
      serviceId: line.serviceId,
      taxCode: line.taxCode,
      quantityMilli: line.quantityMilli,
      rate: line.rate,
      discount: line.discount,
      taxRateBp: line.taxRateBp,
    };
    if (line.id) {
      await tx
        .update(invoiceLines)
        .set(fields)
        .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.id, line.id)));
    } else {
      await tx
        .insert(invoiceLines)
        .values({ orgId, invoiceId: invoice.id, kind: 'custom', amount: 0, ...fields });
    }
  }
}

/** Computes every line's tax and the invoice's totals from its lines, and writes them back. */
export async function recomputeInvoice(
  tx: TExecutor,
  orgId: string,
  invoiceId: string,
  ctx?: TBillingContext,
): Promise<TInvoiceRow> {
  const c = ctx ?? (await billingContext(tx, orgId));
  const invoice = await invoiceForUpdate(tx, orgId, invoiceId);
  const lines = await tx
    .select()
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.position));
  const totals = invoiceTotals(lines, taxContextOf(c, invoice));
  for (const [i, line] of lines.entries()) {
    const t = totals.lines[i];
    if (!t) continue;
    if (
      t.amount !== line.amount ||
      t.cgst !== line.cgst ||
      t.sgst !== line.sgst ||
      t.igst !== line.igst ||
      t.otherTax !== line.otherTax
    ) {
      await tx
        .update(invoiceLines)
        .set({ amount: t.amount, cgst: t.cgst, sgst: t.sgst, igst: t.igst, otherTax: t.otherTax })
        .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.id, line.id)));
    }
  }
  const [row] = await tx
    .update(invoices)
    .set({
      subtotal: totals.subtotal,
      taxTotal: totals.taxTotal,
      roundOff: totals.roundOff,
      total: totals.total,
      balance: totals.total - invoice.amountPaid,
    })
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
    .returning();
  if (!row) throw new Error('invoice vanished');
  return row;
}

/**
 * Recounts what was allocated to these invoices (live allocations of payments and credit notes)
 * and moves their status with it: the one place amount_paid, balance and the paid statuses change.
 */
export async function refreshBalances(
  tx: TExecutor,
  orgId: string,
  invoiceIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(invoiceIds)];
  if (!ids.length) return;
  // The invoices locked first, then what is allocated to them summed: a correlated subquery in the
  // first select would not do, as drizzle leaves a one-table select's columns unqualified and the
  // subquery's "org_id" would then be the allocation's own.
  const rows = await tx
    .select({
      id: invoices.id,
      status: invoices.status,
      total: invoices.total,
      sentAt: invoices.sentAt,
      kind: invoices.kind,
      clientId: invoices.clientId,
      number: invoices.number,
    })
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), inArray(invoices.id, ids)))
    .for('update');
  const sums = await tx
    .select({ invoiceId: allocations.invoiceId, settled: sql<string>`sum(${allocations.amount})` })
    .from(allocations)
    .where(
      and(eq(allocations.orgId, orgId), inArray(allocations.invoiceId, ids), isNull(allocations.reversedAt)),
    )
    .groupBy(allocations.invoiceId);
  const settledOf = new Map(sums.map((s) => [s.invoiceId, Number(s.settled)]));
  for (const r of rows) {
    const settled = settledOf.get(r.id) ?? 0;
    const status: TInvoiceStatus = settledStatus(r.status, { total: r.total, settled, sent: !!r.sentAt });
    await tx
      .update(invoices)
      .set({ amountPaid: settled, balance: r.total - settled, status })
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, r.id)));
    if (status === 'paid' && r.status !== 'paid' && r.kind !== 'credit_note') {
      await emitAutomationEvent(tx, {
        orgId,
        kind: 'invoice.paid',
        clientId: r.clientId,
        data: { invoiceId: r.id, number: r.number },
      });
    }
    // The one place an invoice becomes paid, whatever settled it (a payment, a credit note, credit).
    if (status === 'paid' && r.status !== 'paid')
      await emitWebhookEvent(tx, orgId, 'invoice.paid', { id: r.id, total: r.total, amountPaid: settled });
  }
}
