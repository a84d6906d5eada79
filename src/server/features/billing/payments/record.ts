import { PAYMENT_METHOD_IN_SENTENCE } from '../../../../domain/billing/constants';
import {
  receiptValue,
  type TCreditApply,
  type TPaymentCreate,
  type TRefundCreate,
} from '../../../../domain/billing/payments';
import { todayIn } from '../../../../domain/days';
import { actorOf, type TActor, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { allocations, payments } from '../../../db/schema';
import { audit } from '../../system-log';
import { billingContext } from '../context';
import { refreshBalances, type TInvoiceRow } from '../ledger';
import { badField, clientCredit, creditSources, lockAllocatable, lockClient } from './credit';

// Money in: a receipt settles invoices and leaves the rest as credit; credit settles later invoices;
// a refund pays credit back. Each runs in one transaction that locks the client, then its invoices,
// and moves balances through refreshBalances only.

/** One system-log row per invoice settled, so each invoice's history shows the money that reached it. */
async function auditSettled(
  tx: TExecutor,
  actor: TActor,
  settled: { invoice: TInvoiceRow; amount: number }[],
  say: (invoice: TInvoiceRow, amount: string) => string,
  money: (minor: number) => string,
) {
  for (const { invoice, amount } of settled) {
    await audit(tx, actor, {
      action: 'invoice.settle',
      recordType: 'invoice',
      recordId: invoice.id,
      summary: say(invoice, money(amount)),
    });
  }
}

export async function recordPayment(db: TDb, scope: TScope, input: TPaymentCreate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await lockClient(tx, scope, input.clientId);
    const { format, firm } = await billingContext(tx, scope.orgId);
    const money = format.moneyMinor;
    const locked = await lockAllocatable(tx, scope.orgId, client.id, input.allocations, money);
    const hasTds = input.tdsAmount > 0;
    if (!hasTds && input.tdsSection)
      throw badField('tdsSection', 'Enter the TDS amount, or leave the section blank');
    const [payment] = await tx
      .insert(payments)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        kind: 'receipt',
        receivedOn: input.receivedOn,
        method: input.method,
        reference: input.reference,
        currency: firm.currency,
        amount: input.amount,
        tdsAmount: input.tdsAmount,
        tdsSection: hasTds ? input.tdsSection : null,
        tdsCertificateReceived: hasTds && input.tdsCertificateReceived,
        bankCharges: input.bankCharges,
        notes: input.notes,
        createdBy: scope.memberId,
      })
      .returning({ id: payments.id });
    if (!payment) throw new Error('payment not recorded');
    if (input.allocations.length) {
      await tx.insert(allocations).values(
        input.allocations.map((a) => ({
          orgId: scope.orgId,
          clientId: client.id,
          invoiceId: a.invoiceId,
          paymentId: payment.id,
          amount: a.amount,
          allocatedOn: input.receivedOn,
          createdBy: scope.memberId,
        })),
      );
      await refreshBalances(
        tx,
        scope.orgId,
        input.allocations.map((a) => a.invoiceId),
      );
    }
    const allocated = input.allocations.reduce((s, a) => s + a.amount, 0);
    const toCredit = receiptValue(input) - allocated;
    const actor = actorOf(scope, meta);
    const numbers = input.allocations.map((a) => locked.get(a.invoiceId)?.number).filter(Boolean);
    await audit(tx, actor, {
      action: 'payment.record',
      recordType: 'payment',
      recordId: payment.id,
      summary: [
        `Recorded ${money(input.amount)} from ${client.name} by ${PAYMENT_METHOD_IN_SENTENCE[input.method]}`,
        hasTds ? `, TDS ${money(input.tdsAmount)}${input.tdsSection ? ` (${input.tdsSection})` : ''}` : '',
        input.bankCharges ? `, bank charges ${money(input.bankCharges)}` : '',
        numbers.length ? `; allocated ${money(allocated)} to ${numbers.join(', ')}` : '',
        toCredit ? `; ${money(toCredit)} to the client's credit` : '',
      ].join(''),
    });
    await auditSettled(
      tx,
      actor,
      input.allocations.flatMap((a) => {
        const invoice = locked.get(a.invoiceId);
        return invoice ? [{ invoice, amount: a.amount }] : [];
      }),
      (invoice, amount) =>
        `${amount} of a payment received on ${format.date(input.receivedOn)} settled ${invoice.number}`,
      money,
    );
    return { id: payment.id, allocated, credit: toCredit };
  });
}

/**
 * Settles open invoices from the client's credit: its unallocated receipts and unapplied credit
 * notes, oldest first. Never more than the credit, never more than an invoice's balance.
 */
export async function applyCredit(db: TDb, scope: TScope, input: TCreditApply, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await lockClient(tx, scope, input.clientId);
    const { format, firm } = await billingContext(tx, scope.orgId);
    const money = format.moneyMinor;
    const locked = await lockAllocatable(tx, scope.orgId, client.id, input.allocations, money);
    const credit = await clientCredit(tx, scope.orgId, client.id);
    const wanted = input.allocations.reduce((s, a) => s + a.amount, 0);
    if (wanted > credit) {
      throw badField(
        'allocations',
        credit > 0
          ? `${client.name} has ${money(credit)} of credit: apply no more than that`
          : `${client.name} has no credit to apply`,
      );
    }
    const on = input.appliedOn ?? todayIn(firm.timeZone);
    const sources = await creditSources(tx, scope.orgId, client.id);
    const rows: (typeof allocations.$inferInsert)[] = [];
    let next = 0;
    for (const a of input.allocations) {
      let due = a.amount;
      while (due > 0) {
        const source = sources[next];
        if (!source) throw new Error('credit sources fall short of the credit');
        const take = Math.min(due, source.left);
        rows.push({
          orgId: scope.orgId,
          clientId: client.id,
          invoiceId: a.invoiceId,
          paymentId: source.kind === 'payment' ? source.id : null,
          creditNoteId: source.kind === 'credit_note' ? source.id : null,
          amount: take,
          allocatedOn: on,
          createdBy: scope.memberId,
        });
        source.left -= take;
        due -= take;
        if (source.left === 0) next += 1;
      }
    }
    await tx.insert(allocations).values(rows);
    await refreshBalances(
      tx,
      scope.orgId,
      input.allocations.map((a) => a.invoiceId),
    );
    const actor = actorOf(scope, meta);
    const settled = input.allocations.flatMap((a) => {
      const invoice = locked.get(a.invoiceId);
      return invoice ? [{ invoice, amount: a.amount }] : [];
    });
    await audit(tx, actor, {
      action: 'credit.apply',
      recordType: 'client',
      recordId: client.id,
      summary: `Applied ${money(wanted)} of ${client.name}'s credit to ${settled.map((s) => s.invoice.number).join(', ')}`,
    });
    await auditSettled(
      tx,
      actor,
      settled,
      (invoice, amount) => `${amount} of credit settled ${invoice.number}`,
      money,
    );
    return { applied: wanted, allocations: rows.length, credit: credit - wanted };
  });
}

/** Pays credit back to the client: a refund, never more than the credit there is. */
export async function refundCredit(db: TDb, scope: TScope, input: TRefundCreate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await lockClient(tx, scope, input.clientId);
    const { format, firm } = await billingContext(tx, scope.orgId);
    const money = format.moneyMinor;
    const credit = await clientCredit(tx, scope.orgId, client.id);
    if (input.amount > credit) {
      throw badField(
        'amount',
        credit > 0
          ? `${client.name} has ${money(credit)} of credit: refund no more than that`
          : `${client.name} has no credit to refund`,
      );
    }
    const [refund] = await tx
      .insert(payments)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        kind: 'refund',
        receivedOn: input.paidOn,
        method: input.method,
        reference: input.reference,
        currency: firm.currency,
        amount: input.amount,
        notes: input.notes,
        createdBy: scope.memberId,
      })
      .returning({ id: payments.id });
    if (!refund) throw new Error('refund not recorded');
    await audit(tx, actorOf(scope, meta), {
      action: 'payment.refund',
      recordType: 'payment',
      recordId: refund.id,
      summary: `Refunded ${money(input.amount)} of ${client.name}'s credit by ${PAYMENT_METHOD_IN_SENTENCE[input.method]}`,
    });
    return { id: refund.id, credit: credit - input.amount };
  });
}
