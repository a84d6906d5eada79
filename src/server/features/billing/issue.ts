import { TRPCError } from '@trpc/server';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { fiscalYearLabel, formatInvoiceNumber } from '../../../domain/billing/numbering';
import { addDays, todayIn } from '../../../domain/days';
import type { TActor } from '../../auth';
import type { TExecutor } from '../../db/client';
import {
  allocations,
  clients,
  disbursements,
  invoiceCounters,
  invoiceLines,
  invoices,
  timesheetEntries,
} from '../../db/schema';
import { emitAutomationEvent } from '../../events';
import { clientTaxIds } from '../clients';
import { audit } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import { billingContext, seriesOf, type TBillingContext } from './context';
import {
  invoiceForUpdate,
  recomputeInvoice,
  refreshBalances,
  requireDraft,
  type TInvoiceRow,
} from './ledger';
import { clientCredit, lockClient } from './payments/credit';

/**
 * The next number of a series in a fiscal year, taken inside the issuing transaction. The upsert
 * locks the counter's row until commit: a concurrent issue waits for it and takes the number after,
 * and an issue that rolls back gives its number back. No gap, no duplicate, on any number of instances.
 */
async function nextNumber(tx: TExecutor, orgId: string, series: string, fiscalYear: string): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ orgId, series, fiscalYear, lastSeq: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.orgId, invoiceCounters.series, invoiceCounters.fiscalYear],
      set: { lastSeq: sql`${invoiceCounters.lastSeq} + 1` },
    })
    .returning({ seq: invoiceCounters.lastSeq });
  if (!row) throw new Error('no number');
  return row.seq;
}

function addressLines(c: typeof clients.$inferSelect): string[] {
  const cityLine = [c.city, c.region, c.postalCode].filter(Boolean).join(', ');
  return [c.addressLine1, c.addressLine2, cityLine, c.country].filter((l): l is string => !!l);
}

/**
 * Shares a time line's billed amount out over the entries it bills, in proportion to each one's
 * standard value (largest remainder, so the shares add up to the line exactly): realization by
 * member reads these.
 */
async function shareOutTime(tx: TExecutor, orgId: string, invoiceId: string) {
  const rows = await tx
    .select({
      id: timesheetEntries.id,
      lineId: invoiceLines.id,
      lineAmount: invoiceLines.amount,
      value: sql<string>`round(${timesheetEntries.minutes}::numeric * coalesce(${timesheetEntries.billRate}, 0) / 60)`,
    })
    .from(timesheetEntries)
    .innerJoin(
      invoiceLines,
      and(
        eq(invoiceLines.orgId, timesheetEntries.orgId),
        eq(invoiceLines.id, timesheetEntries.invoiceLineId),
      ),
    )
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)));
  const byLine = new Map<string, { amount: number; entries: { id: string; value: number }[] }>();
  for (const r of rows) {
    const line = byLine.get(r.lineId) ?? { amount: r.lineAmount, entries: [] };
    line.entries.push({ id: r.id, value: Number(r.value) });
    byLine.set(r.lineId, line);
  }
  for (const line of byLine.values()) {
    const totalValue = line.entries.reduce((s, e) => s + e.value, 0);
    const n = line.entries.length;
    const shares = line.entries.map((e) => {
      const exact = totalValue > 0 ? (line.amount * e.value) / totalValue : line.amount / n;
      return { id: e.id, share: Math.floor(exact), rest: exact - Math.floor(exact) };
    });
    let left = line.amount - shares.reduce((s, x) => s + x.share, 0);
    for (const s of [...shares].sort((a, b) => b.rest - a.rest)) {
      if (left <= 0) break;
      s.share += 1;
      left -= 1;
    }
    for (const s of shares) {
      await tx
        .update(timesheetEntries)
        .set({ billedAmount: s.share })
        .where(and(eq(timesheetEntries.orgId, orgId), eq(timesheetEntries.id, s.id)));
    }
  }
}

/**
 * Issues a draft: checks it bills something, takes the next number of its series in the fiscal year
 * of its issue date, freezes the client as printed, sets the due date by the firm's terms, and locks
 * it. A credit note then settles the invoice it corrects, up to that invoice's balance.
 */
export async function issueInvoice(
  tx: TExecutor,
  actor: TActor,
  invoiceId: string,
  opts: { issueDate?: string; memberId: string | null },
  ctx?: TBillingContext,
): Promise<TInvoiceRow> {
  const c = ctx ?? (await billingContext(tx, actor.orgId));
  const orgId = actor.orgId;
  const draft = await invoiceForUpdate(tx, orgId, invoiceId);
  requireDraft(draft);
  const current = await recomputeInvoice(tx, orgId, invoiceId, c);
  const [lineCount] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)));
  if (!lineCount?.n || current.total <= 0) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        current.kind === 'credit_note'
          ? 'A credit note needs at least one line with an amount'
          : 'An invoice needs at least one line with an amount before it is issued',
    });
  }
  const issueDate = opts.issueDate ?? todayIn(c.firm.timeZone);
  const series = seriesOf(c, current.kind);
  const fiscalYear = fiscalYearLabel(issueDate, c.firm.fiscalYearStartMonth);
  const seq = await nextNumber(tx, orgId, series, fiscalYear);
  const number = formatInvoiceNumber(series, fiscalYear, seq, c.settings.seqDigits);
  const [client] = await tx
    .select()
    .from(clients)
    .where(and(eq(clients.orgId, orgId), eq(clients.id, current.clientId)));
  if (!client) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  const dueDate =
    current.kind === 'credit_note' ? issueDate : (current.dueDate ?? addDays(issueDate, c.settings.dueDays));
  const [issued] = await tx
    .update(invoices)
    .set({
      status: 'issued',
      series,
      fiscalYear,
      seq,
      number,
      issueDate,
      dueDate: dueDate < issueDate ? issueDate : dueDate,
      billTo: {
        name: client.name,
        code: client.code,
        addressLines: addressLines(client),
        taxIds: await clientTaxIds(tx, orgId, client.id, client.taxIds),
      },
      issuedAt: new Date(),
      issuedBy: opts.memberId,
    })
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
    .returning();
  if (!issued) throw new Error('invoice vanished');
  await shareOutTime(tx, orgId, invoiceId);
  if (issued.kind === 'credit_note' && issued.creditForId) {
    const original = await invoiceForUpdate(tx, orgId, issued.creditForId);
    const applied = Math.min(issued.total, Math.max(original.balance, 0));
    if (applied > 0) {
      await tx.insert(allocations).values({
        orgId,
        clientId: issued.clientId,
        invoiceId: original.id,
        creditNoteId: issued.id,
        amount: applied,
        allocatedOn: issueDate,
        createdBy: opts.memberId,
      });
      await refreshBalances(tx, orgId, [original.id]);
    }
  }
  await audit(tx, actor, {
    action: issued.kind === 'credit_note' ? 'credit_note.issue' : 'invoice.issue',
    recordType: 'invoice',
    recordId: issued.id,
    summary: `Issued ${number} to ${client.name} for ${c.format.moneyMinor(issued.total)}`,
  });
  if (issued.kind !== 'credit_note') {
    await emitAutomationEvent(tx, {
      orgId,
      kind: 'invoice.issued',
      clientId: issued.clientId,
      data: { invoiceId: issued.id, number },
    });
  }
  if (issued.kind !== 'credit_note')
    await emitWebhookEvent(tx, orgId, 'invoice.issued', {
      id: issued.id,
      number,
      clientId: issued.clientId,
      issueDate,
      dueDate: issued.dueDate,
      currency: c.firm.currency,
      total: issued.total,
    });
  return issued;
}

/**
 * Voids an issued invoice: the number stays (shown void), what it billed returns to WIP (time,
 * disbursements, fee periods). Refused while payments or credit notes are allocated to it: those
 * are reversed first, so no money is left pointing at a void invoice.
 */
export async function voidInvoice(
  tx: TExecutor,
  actor: TActor,
  invoiceId: string,
  reason: string,
): Promise<TInvoiceRow> {
  const orgId = actor.orgId;
  // A credit note's unapplied amount is the client's credit, which every change takes the client's
  // lock for, before the invoice's.
  const [head] = await tx
    .select({ kind: invoices.kind, clientId: invoices.clientId })
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)));
  if (head?.kind === 'credit_note')
    await lockClient(tx, { orgId, memberId: '', assignedClientsOnly: false }, head.clientId);
  const invoice = await invoiceForUpdate(tx, orgId, invoiceId);
  if (invoice.status === 'draft') {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'A draft has no number to void: delete it instead' });
  }
  if (invoice.status === 'void')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This invoice is void already' });
  const [live] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(allocations)
    .where(
      and(
        eq(allocations.orgId, orgId),
        isNull(allocations.reversedAt),
        sql`(${allocations.invoiceId} = ${invoiceId} or ${allocations.creditNoteId} = ${invoiceId})`,
      ),
    );
  if (live?.n) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Payments or credit notes are allocated to this invoice: reverse them before voiding it',
    });
  }
  // Nothing of it is applied, so all of it is in the credit, unless part was refunded since.
  if (invoice.kind === 'credit_note' && (await clientCredit(tx, orgId, invoice.clientId)) < invoice.total) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: "This credit note's credit was refunded to the client: reverse the refund before voiding it",
    });
  }
  await releaseLines(tx, orgId, invoiceId);
  const [row] = await tx
    .update(invoices)
    .set({ status: 'void', voidedAt: new Date(), voidReason: reason, balance: 0 })
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
    .returning();
  if (!row) throw new Error('invoice vanished');
  await audit(tx, actor, {
    action: 'invoice.void',
    recordType: 'invoice',
    recordId: invoiceId,
    summary: `Voided ${invoice.number}: ${reason}`,
  });
  return row;
}

/** What a voided invoice billed is unbilled again. */
async function releaseLines(tx: TExecutor, orgId: string, invoiceId: string) {
  const lines = await tx
    .update(invoiceLines)
    .set({ released: true })
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)))
    .returning({ id: invoiceLines.id });
  const ids = lines.map((l) => l.id);
  if (!ids.length) return;
  await tx
    .update(timesheetEntries)
    .set({ invoiceLineId: null, billedAmount: null })
    .where(and(eq(timesheetEntries.orgId, orgId), inArray(timesheetEntries.invoiceLineId, ids)));
  await tx
    .update(disbursements)
    .set({ invoiceLineId: null })
    .where(and(eq(disbursements.orgId, orgId), inArray(disbursements.invoiceLineId, ids)));
}

/** Deletes a draft; what it billed is back in WIP (the links clear with its lines). */
export async function deleteDraft(tx: TExecutor, actor: TActor, invoiceId: string): Promise<void> {
  const invoice = await invoiceForUpdate(tx, actor.orgId, invoiceId);
  requireDraft(invoice);
  await tx.delete(invoices).where(and(eq(invoices.orgId, actor.orgId), eq(invoices.id, invoiceId)));
  await audit(tx, actor, {
    action: 'invoice.delete_draft',
    recordType: 'invoice',
    recordId: invoiceId,
    summary: `Deleted a draft ${invoice.kind === 'credit_note' ? 'credit note' : 'invoice'}`,
  });
}
