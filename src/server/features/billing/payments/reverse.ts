import { TRPCError } from '@trpc/server';
import { and, eq, isNull } from 'drizzle-orm';
import type { TPaymentUpdate } from '../../../../domain/billing/payments';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { allocations, invoices, payments } from '../../../db/schema';
import { audit, diff } from '../../system-log';
import { billingContext } from '../context';
import { refreshBalances } from '../ledger';
import { badField, clientCredit, lockClient } from './credit';

// Undoing money: a payment is never deleted, it is reversed (a bounced cheque, a mistake), which
// takes back its allocations and reopens the invoices; a single allocation can be taken back too,
// its amount returning to the client's credit.

const PAYMENT_NOT_FOUND = 'Payment not found';

/**
 * The payment, locked, after its client: the client's lock comes first here as in every credit
 * change, so a reversal and an application of the same credit cannot wait on each other crosswise.
 */
async function lockPayment(tx: TExecutor, scope: TScope, paymentId: string) {
  const [head] = await tx
    .select({ clientId: payments.clientId })
    .from(payments)
    .where(and(eq(payments.orgId, scope.orgId), eq(payments.id, paymentId)));
  if (!head) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_NOT_FOUND });
  const client = await lockClient(tx, scope, head.clientId).catch(() => {
    throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_NOT_FOUND });
  });
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orgId, scope.orgId), eq(payments.id, paymentId)))
    .for('no key update');
  if (!payment) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_NOT_FOUND });
  return { payment, client };
}

export async function reversePayment(
  db: TDb,
  scope: TScope,
  input: { paymentId: string; reason: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { payment, client } = await lockPayment(tx, scope, input.paymentId);
    if (payment.reversedAt)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This payment is reversed already' });
    const { format } = await billingContext(tx, scope.orgId);
    const now = new Date();
    const taken = await tx
      .update(allocations)
      .set({ reversedAt: now })
      .where(
        and(
          eq(allocations.orgId, scope.orgId),
          eq(allocations.paymentId, payment.id),
          isNull(allocations.reversedAt),
        ),
      )
      .returning({ invoiceId: allocations.invoiceId, amount: allocations.amount });
    await tx
      .update(payments)
      .set({ reversedAt: now, reversedBy: scope.memberId, reverseReason: input.reason, updatedAt: now })
      .where(and(eq(payments.orgId, scope.orgId), eq(payments.id, payment.id)));
    // What a receipt left as credit may have been refunded since: taking the receipt away would
    // then leave the client owed money nobody paid. The refund is reversed first.
    if (payment.kind === 'receipt' && (await clientCredit(tx, scope.orgId, client.id)) < 0) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `Part of this payment's credit was refunded to ${client.name}: reverse that refund first`,
      });
    }
    await refreshBalances(
      tx,
      scope.orgId,
      taken.map((a) => a.invoiceId),
    );
    const money = format.moneyMinor;
    const actor = actorOf(scope, meta);
    const what = payment.kind === 'refund' ? 'refund' : 'payment';
    await audit(tx, actor, {
      action: `${what}.reverse`,
      recordType: 'payment',
      recordId: payment.id,
      summary: `Reversed the ${what} of ${money(payment.amount)} ${payment.kind === 'refund' ? 'to' : 'from'} ${client.name} (${format.date(payment.receivedOn)}): ${input.reason}`,
    });
    const reopened = await invoiceNumbers(
      tx,
      scope.orgId,
      taken.map((a) => a.invoiceId),
    );
    for (const a of taken) {
      await audit(tx, actor, {
        action: 'invoice.unsettle',
        recordType: 'invoice',
        recordId: a.invoiceId,
        summary: `${money(a.amount)} taken back from ${reopened.get(a.invoiceId) ?? 'the invoice'}: its payment was reversed (${input.reason})`,
      });
    }
    return { id: payment.id, reopened: [...new Set(taken.map((a) => a.invoiceId))].length };
  });
}

async function invoiceNumbers(tx: TExecutor, orgId: string, ids: string[]) {
  const out = new Map<string, string>();
  for (const id of new Set(ids)) {
    const [row] = await tx
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.orgId, orgId), eq(invoices.id, id)));
    if (row?.number) out.set(id, row.number);
  }
  return out;
}

/** Takes one allocation back (of a payment or a credit note): the invoice reopens, the credit returns. */
export async function reverseAllocation(
  db: TDb,
  scope: TScope,
  input: { allocationId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Allocation not found' });
    const [head] = await tx
      .select({ clientId: allocations.clientId })
      .from(allocations)
      .where(and(eq(allocations.orgId, scope.orgId), eq(allocations.id, input.allocationId)));
    if (!head) throw notFound();
    const client = await lockClient(tx, scope, head.clientId).catch(() => {
      throw notFound();
    });
    const [row] = await tx
      .select({ allocation: allocations, number: invoices.number })
      .from(allocations)
      .innerJoin(invoices, and(eq(invoices.orgId, allocations.orgId), eq(invoices.id, allocations.invoiceId)))
      .where(and(eq(allocations.orgId, scope.orgId), eq(allocations.id, input.allocationId)))
      .for('update', { of: allocations });
    if (!row) throw notFound();
    if (row.allocation.reversedAt) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This allocation is taken back already' });
    }
    await tx
      .update(allocations)
      .set({ reversedAt: new Date() })
      .where(and(eq(allocations.orgId, scope.orgId), eq(allocations.id, row.allocation.id)));
    await refreshBalances(tx, scope.orgId, [row.allocation.invoiceId]);
    const { format } = await billingContext(tx, scope.orgId);
    await audit(tx, actorOf(scope, meta), {
      action: 'invoice.unsettle',
      recordType: 'invoice',
      recordId: row.allocation.invoiceId,
      summary: `${format.moneyMinor(row.allocation.amount)} taken back from ${row.number}: back in ${client.name}'s credit`,
    });
    return { id: row.allocation.id };
  });
}

/** A payment's paperwork: reference, notes, the TDS section and whether its certificate came in. */
export async function updatePayment(db: TDb, scope: TScope, input: TPaymentUpdate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { payment, client } = await lockPayment(tx, scope, input.paymentId);
    const hasTds = payment.tdsAmount > 0;
    if (!hasTds && input.tdsSection)
      throw badField('tdsSection', 'This payment has no TDS: leave the section blank');
    if (!hasTds && input.tdsCertificateReceived) {
      throw badField('tdsCertificateReceived', 'This payment has no TDS: there is no certificate to receive');
    }
    const after = {
      reference: input.reference,
      notes: input.notes,
      tdsSection: input.tdsSection,
      tdsCertificateReceived: input.tdsCertificateReceived,
    };
    const changes = diff(
      {
        reference: payment.reference,
        notes: payment.notes,
        tdsSection: payment.tdsSection,
        tdsCertificateReceived: payment.tdsCertificateReceived,
      },
      after,
    );
    if (!changes) return { id: payment.id, changed: false };
    await tx
      .update(payments)
      .set({ ...after, updatedAt: new Date() })
      .where(and(eq(payments.orgId, scope.orgId), eq(payments.id, payment.id)));
    const { format } = await billingContext(tx, scope.orgId);
    const certificateOnly = Object.keys(changes).join() === 'tdsCertificateReceived';
    await audit(tx, actorOf(scope, meta), {
      action: 'payment.update',
      recordType: 'payment',
      recordId: payment.id,
      summary: certificateOnly
        ? `${input.tdsCertificateReceived ? 'Received' : 'Marked as not received'} the TDS certificate for ${format.moneyMinor(payment.tdsAmount)} from ${client.name}`
        : `Edited the payment of ${format.moneyMinor(payment.amount)} from ${client.name} (${format.date(payment.receivedOn)})`,
      changes,
    });
    return { id: payment.id, changed: true };
  });
}
