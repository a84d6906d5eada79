import type { TPaymentMethod } from '../../domain/billing/constants';
import type { TActor } from '../auth';
import { allocations, payments } from '../db/schema';
import {
  createDraft,
  issueInvoice,
  refreshBalances,
  type TDraftLine,
  type TInvoiceRow,
} from '../features/billing';
import type { TTestApp } from './app';

// Billing made straight through the ledger core, for tests of what reads it (the portal, reports,
// export, backup): the invoices and payments procedures are other parts' to test.

type TLine = Partial<TDraftLine> & { description: string; rate: number };

const lineOf = (l: TLine): TDraftLine => ({
  serviceId: null,
  taxCode: '',
  quantityMilli: 1000,
  discount: 0,
  taxRateBp: 0,
  ...l,
});

type TInvoiceInput = {
  clientId: string;
  lines: TLine[];
  kind?: 'invoice' | 'credit_note';
  creditForId?: string;
};

/** A draft invoice (no number yet). */
export async function seedDraft(t: Pick<TTestApp, 'db'>, orgId: string, input: TInvoiceInput) {
  return t.db.transaction((tx) =>
    createDraft(tx, orgId, {
      clientId: input.clientId,
      kind: input.kind,
      creditForId: input.creditForId,
      lines: input.lines.map(lineOf),
      createdBy: null,
    }),
  );
}

/** An invoice (or credit note) issued on `issueDate`. */
export async function seedInvoice(
  t: Pick<TTestApp, 'db'>,
  orgId: string,
  input: TInvoiceInput & { issueDate?: string },
): Promise<TInvoiceRow> {
  const draft = await seedDraft(t, orgId, input);
  const actor: TActor = { kind: 'system', orgId };
  return t.db.transaction((tx) =>
    issueInvoice(tx, actor, draft.id, { issueDate: input.issueDate ?? '2026-11-02', memberId: null }),
  );
}

/** A receipt allocated to invoices (what is left unallocated is the client's credit). */
export async function seedReceipt(
  t: Pick<TTestApp, 'db'>,
  orgId: string,
  input: {
    clientId: string;
    receivedOn: string;
    amount: number;
    tdsAmount?: number;
    method?: TPaymentMethod;
    allocate: { invoiceId: string; amount: number }[];
  },
) {
  return t.db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values({
        orgId,
        clientId: input.clientId,
        receivedOn: input.receivedOn,
        method: input.method ?? 'bank_transfer',
        currency: 'INR',
        amount: input.amount,
        tdsAmount: input.tdsAmount ?? 0,
      })
      .returning();
    if (!payment) throw new Error('payment not created');
    if (input.allocate.length) {
      await tx.insert(allocations).values(
        input.allocate.map((a) => ({
          orgId,
          clientId: input.clientId,
          invoiceId: a.invoiceId,
          paymentId: payment.id,
          amount: a.amount,
          allocatedOn: input.receivedOn,
        })),
      );
      await refreshBalances(
        tx,
        orgId,
        input.allocate.map((a) => a.invoiceId),
      );
    }
    return payment;
  });
}
