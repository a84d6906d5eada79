import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZInvoiceCreate, ZInvoiceUpdate } from '../../../../domain/billing/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { invoiceLines, invoices } from '../../../db/schema';
import { visibleClient } from '../../clients';
import { audit, diff } from '../../system-log';
import { billingContext } from '../context';
import { deleteDraft, issueInvoice } from '../issue';
import { createDraft, recomputeInvoice, replaceDraftLines, requireDraft } from '../ledger';
import { visibleInvoice } from './access';

/** A new draft for a client, empty or with the lines given. */
export async function createInvoice(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZInvoiceCreate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    const ctx = await billingContext(tx, scope.orgId);
    const draft = await createDraft(
      tx,
      scope.orgId,
      { clientId: client.id, lines: input.lines, notes: input.notes, createdBy: scope.memberId },
      ctx,
    );
    await audit(tx, actorOf(scope, meta), {
      action: 'invoice.create',
      recordType: 'invoice',
      recordId: draft.id,
      summary: `Started a draft invoice for ${client.name}`,
    });
    return draft;
  });
}

type TLineSummary = {
  description: string;
  quantityMilli: number;
  rate: number;
  discount: number;
  taxRateBp: number;
};
const linesOf = (tx: TExecutor, orgId: string, invoiceId: string): Promise<TLineSummary[]> =>
  tx
    .select({
      description: invoiceLines.description,
      quantityMilli: invoiceLines.quantityMilli,
      rate: invoiceLines.rate,
      discount: invoiceLines.discount,
      taxRateBp: invoiceLines.taxRateBp,
    })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.position));

/**
 * Saves a draft as edited: its lines (what they bill kept), due date, place of supply, notes and
 * terms. Its tax regime follows the firm's current settings, so a draft started before the firm set
 * up GST is taxed as it will be issued.
 */
export async function updateInvoice(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZInvoiceUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await visibleInvoice(tx, scope, input.invoiceId, true);
    requireDraft(before);
    const ctx = await billingContext(tx, scope.orgId);
    const beforeLines = await linesOf(tx, scope.orgId, before.id);
    const fields = {
      dueDate: input.dueDate,
      placeOfSupply: ctx.settings.taxRegime === 'gst' ? input.placeOfSupply : null,
      zeroRated: ctx.settings.taxRegime === 'gst' ? input.zeroRated : false,
      notes: input.notes,
      terms: input.terms,
      taxRegime: ctx.settings.taxRegime,
    };
    await tx
      .update(invoices)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(invoices.orgId, scope.orgId), eq(invoices.id, before.id)));
    await replaceDraftLines(tx, scope.orgId, before, input.lines);
    const after = await recomputeInvoice(tx, scope.orgId, before.id, ctx);
    const afterLines = await linesOf(tx, scope.orgId, before.id);
    const changes = diff(
      {
        dueDate: before.dueDate,
        placeOfSupply: before.placeOfSupply,
        zeroRated: before.zeroRated,
        notes: before.notes,
        terms: before.terms,
        taxRegime: before.taxRegime,
        lines: beforeLines,
        total: before.total,
      },
      { ...fields, lines: afterLines, total: after.total },
    );
    if (changes) {
      await audit(tx, actorOf(scope, meta), {
        action: 'invoice.update',
        recordType: 'invoice',
        recordId: before.id,
        summary: `Edited a draft: ${afterLines.length} line${afterLines.length === 1 ? '' : 's'}, total ${ctx.format.moneyMinor(after.total)}`,
        changes,
      });
    }
    return { id: before.id, total: after.total };
  });
}

export async function issueDraft(
  db: TDb,
  scope: TScope,
  input: { invoiceId: string; issueDate?: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    await visibleInvoice(tx, scope, input.invoiceId);
    const issued = await issueInvoice(tx, actorOf(scope, meta), input.invoiceId, {
      issueDate: input.issueDate,
      memberId: scope.memberId,
    });
    return { id: issued.id, number: issued.number };
  });
}

export async function deleteInvoiceDraft(db: TDb, scope: TScope, invoiceId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    await visibleInvoice(tx, scope, invoiceId);
    await deleteDraft(tx, actorOf(scope, meta), invoiceId);
    return { id: invoiceId };
  });
}
