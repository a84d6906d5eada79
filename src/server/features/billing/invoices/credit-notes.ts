import { TRPCError } from '@trpc/server';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TCreditNoteRaise } from '../../../../domain/billing/invoices';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { allocations, invoiceLines, invoices } from '../../../db/schema';
import { audit } from '../../system-log';
import { billingContext } from '../context';
import { issueInvoice, voidInvoice } from '../issue';
import { createDraft, recomputeInvoice, refreshBalances, type TDraftLine } from '../ledger';
import { lockClientFirst, visibleInvoice } from './access';

/** What the invoice's credit notes (issued, not void) already took back. */
async function creditedSoFar(tx: TExecutor, orgId: string, invoiceId: string, except: string) {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${invoices.total}), 0)` })
    .from(invoices)
    .where(
      and(
        eq(invoices.orgId, orgId),
        eq(invoices.creditForId, invoiceId),
        eq(invoices.kind, 'credit_note'),
        ne(invoices.status, 'void'),
        ne(invoices.status, 'draft'),
        ne(invoices.id, except),
      ),
    );
  return Number(row?.total ?? 0);
}

/** The invoice's own lines, to credit it whole: the same amounts, taxed the same way. */
async function wholeInvoice(tx: TExecutor, orgId: string, invoiceId: string): Promise<TDraftLine[]> {
  return tx
    .select({
      description: invoiceLines.description,
      serviceId: invoiceLines.serviceId,
      taxCode: invoiceLines.taxCode,
      quantityMilli: invoiceLines.quantityMilli,
      rate: invoiceLines.rate,
      discount: invoiceLines.discount,
      taxRateBp: invoiceLines.taxRateBp,
    })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.position));
}

/**
 * Raises and issues a credit note against an issued invoice, in one transaction: the lines given
 * (or the whole invoice), taxed as the invoice was, never more than what the invoice has left to
 * credit. Issuing it settles the invoice's balance as far as it goes (issue.ts); any rest is the
 * client's credit.
 */
export async function raiseCreditNote(db: TDb, scope: TScope, input: TCreditNoteRaise, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const seen = await visibleInvoice(tx, scope, input.invoiceId);
    // What the credit note does not settle is the client's credit: the client's lock comes first.
    await lockClientFirst(tx, scope.orgId, seen.clientId);
    const original = await visibleInvoice(tx, scope, input.invoiceId, true);
    if (original.kind !== 'invoice')
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'A credit note is raised against an invoice' });
    if (original.status === 'draft')
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'A draft has nothing to credit: edit it instead' });
    if (original.status === 'void')
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'This invoice is void: there is nothing to credit',
      });
    const ctx = await billingContext(tx, scope.orgId);
    const lines = input.full ? await wholeInvoice(tx, scope.orgId, original.id) : input.lines;
    const draft = await createDraft(
      tx,
      scope.orgId,
      {
        clientId: original.clientId,
        kind: 'credit_note',
        creditForId: original.id,
        lines: lines.map((l) => ({ ...l, kind: 'custom' })),
        notes: input.reason,
        createdBy: scope.memberId,
      },
      ctx,
    );
    // Taxed as the invoice it corrects, whatever the client's registration says today.
    await tx
      .update(invoices)
      .set({
        taxRegime: original.taxRegime,
        placeOfSupply: original.placeOfSupply,
        zeroRated: original.zeroRated,
        terms: '',
      })
      .where(and(eq(invoices.orgId, scope.orgId), eq(invoices.id, draft.id)));
    const priced = await recomputeInvoice(tx, scope.orgId, draft.id, ctx);
    const left = original.total - (await creditedSoFar(tx, scope.orgId, original.id, draft.id));
    if (priced.total > left) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `A credit note cannot be more than what is left to credit on ${original.number}: ${ctx.format.moneyMinor(Math.max(left, 0))}`,
      });
    }
    const actor = actorOf(scope, meta);
    const issued = await issueInvoice(tx, actor, draft.id, { memberId: scope.memberId }, ctx);
    await audit(tx, actor, {
      action: 'invoice.credit',
      recordType: 'invoice',
      recordId: original.id,
      summary: `Raised ${issued.number} for ${ctx.format.moneyMinor(issued.total)} against ${original.number}: ${input.reason}`,
    });
    return { id: issued.id, number: issued.number, total: issued.total };
  });
}

/**
 * Voids an issued invoice or credit note (the number stays, shown void). A credit note's own
 * settlement of its invoice is undone with it, so the invoice is owed again; money allocated to an
 * invoice must be reversed first (issue.ts refuses).
 */
export async function voidDocument(
  db: TDb,
  scope: TScope,
  input: { invoiceId: string; reason: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const seen = await visibleInvoice(tx, scope, input.invoiceId);
    if (seen.kind === 'credit_note') await lockClientFirst(tx, scope.orgId, seen.clientId);
    const doc = await visibleInvoice(tx, scope, input.invoiceId, true);
    if (doc.kind === 'credit_note' && doc.status !== 'void' && doc.status !== 'draft') {
      const undone = await tx
        .update(allocations)
        .set({ reversedAt: new Date() })
        .where(
          and(
            eq(allocations.orgId, scope.orgId),
            eq(allocations.creditNoteId, doc.id),
            isNull(allocations.reversedAt),
          ),
        )
        .returning({ invoiceId: allocations.invoiceId });
      await refreshBalances(
        tx,
        scope.orgId,
        undone.map((a) => a.invoiceId),
      );
    }
    const row = await voidInvoice(tx, actorOf(scope, meta), doc.id, input.reason);
    return { id: row.id, number: row.number };
  });
}
