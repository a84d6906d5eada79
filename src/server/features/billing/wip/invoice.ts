import { TRPCError } from '@trpc/server';
import type { TWipAddToDraft, TWipCreateInvoice } from '../../../../domain/billing/wip';
import { actorOf, type TActor, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb } from '../../../db/client';
import { visibleClient } from '../../clients';
import { audit } from '../../system-log';
import { billingContext, type TBillingContext } from '../context';
import {
  appendLines,
  createDraft,
  invoiceForUpdate,
  recomputeInvoice,
  requireDraft,
  type TDraftLine,
} from '../ledger';
import { checkLineCount, orConflict, wipLines } from './lines';

// Work in progress onto an invoice: a new draft, or the client's open draft. One transaction each:
// the lines, their links to what they bill and the log entry commit together or not at all.

function summaryOf(ctx: TBillingContext, lines: TDraftLine[], total: number) {
  const count = (kind: TDraftLine['kind'], one: string) => {
    const n = lines.filter((l) => l.kind === kind).length;
    return n ? [`${n} ${one}${n === 1 ? '' : 's'}`] : [];
  };
  const parts = [
    ...count('fee', 'fee'),
    ...count('time', 'time line'),
    ...count('disbursement', 'disbursement'),
  ];
  return `${parts.join(', ')}; ${ctx.format.moneyMinor(total)}`;
}

export async function createInvoiceFromWip(
  db: TDb,
  scope: TScope,
  input: TWipCreateInvoice,
  meta: TRequestMeta,
  now = new Date(),
): Promise<{ invoiceId: string }> {
  return orConflict(() =>
    db.transaction(async (tx) => {
      const client = await visibleClient(tx, scope, input.clientId);
      const ctx = await billingContext(tx, scope.orgId);
      const lines = await wipLines(tx, ctx, scope.orgId, client.id, input, now);
      await checkLineCount(tx, scope.orgId, null, lines.length);
      const { id } = await createDraft(
        tx,
        scope.orgId,
        { clientId: client.id, lines, createdBy: scope.memberId },
        ctx,
      );
      const invoice = await recomputeInvoice(tx, scope.orgId, id, ctx);
      await audit(tx, actorOf(scope, meta), {
        action: 'invoice.create',
        recordType: 'invoice',
        recordId: id,
        summary: `Made a draft invoice for ${client.name} from work in progress: ${summaryOf(ctx, lines, invoice.total)}`,
      });
      return { invoiceId: id };
    }),
  );
}

export async function addWipToDraft(
  db: TDb,
  scope: TScope,
  input: TWipAddToDraft,
  meta: TRequestMeta,
  now = new Date(),
): Promise<{ invoiceId: string }> {
  return orConflict(() =>
    db.transaction(async (tx) => {
      const invoice = await invoiceForUpdate(tx, scope.orgId, input.invoiceId);
      const client = await visibleClient(tx, scope, invoice.clientId).catch(() => {
        throw new TRPCError({ code: 'NOT_FOUND', message: 'Invoice not found' });
      });
      requireDraft(invoice);
      if (invoice.kind !== 'invoice')
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'Work in progress goes on an invoice, not a credit note',
        });
      const ctx = await billingContext(tx, scope.orgId);
      const lines = await wipLines(tx, ctx, scope.orgId, client.id, input, now);
      await checkLineCount(tx, scope.orgId, invoice.id, lines.length);
      await appendLines(tx, scope.orgId, invoice, lines);
      const after = await recomputeInvoice(tx, scope.orgId, invoice.id, ctx);
      await audit(tx, actorOf(scope, meta), {
        action: 'invoice.update',
        recordType: 'invoice',
        recordId: invoice.id,
        summary: `Added work in progress to the draft invoice for ${client.name}: ${summaryOf(ctx, lines, after.total - invoice.total)} more`,
        changes: { total: { from: invoice.total, to: after.total } },
      });
      return { invoiceId: invoice.id };
    }),
  );
}

/** The product's own doing (the recurring job, a project's completion): the system acts. */
export const systemActor = (orgId: string): TActor => ({ kind: 'system', orgId });

export { summaryOf };
