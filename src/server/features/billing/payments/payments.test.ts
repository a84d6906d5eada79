import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, invoices, payments, systemLog } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { billingFirm, issuedCreditNote, issuedInvoice, memberWith } from '../../../test/billing';
import { putOnTeam, seedClient } from '../../../test/fixtures';
import { codeOf } from '../../../test/outcome';
import { voidInvoice } from '..';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TFirm = Awaited<ReturnType<typeof billingFirm>>;

const receipt = (clientId: string, amount: number, more: Record<string, unknown> = {}) => ({
  clientId,
  receivedOn: '2026-11-20',
  method: 'bank_transfer' as const,
  amount,
  ...more,
});

async function invoiceRow(id: string) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.id, id));
  if (!row) throw new Error('no invoice');
  return row;
}

describe('recording a payment', () => {
  let firm: TFirm;
  beforeAll(async () => {
    firm = await billingFirm(t, 'Collect & Co');
  });

  it('settles part of an invoice with TDS and bank charges, then the rest, and audits both', async () => {
    const client = await seedClient(t, firm.org.id, { name: 'Sharma Traders' });
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 1_000_000, { issueDate: '2026-11-01' });
    const api = t.client(firm.owner.token);
    const first = await api.billing.payments.record.mutate(
      receipt(client.id, 540_000, {
        tdsAmount: 60_000,
        tdsSection: '194j',
        bankCharges: 500,
        reference: 'UTR123',
        allocations: [{ invoiceId: invoice.id, amount: 600_500 }],
      }),
    );
    expect(first).toMatchObject({ allocated: 600_500, credit: 0 });
    expect(await invoiceRow(invoice.id)).toMatchObject({
      status: 'partly_paid',
      amountPaid: 600_500,
      balance: 399_500,
    });
    const [stored] = await t.db.select().from(payments).where(eq(payments.id, first.id));
    expect(stored).toMatchObject({ tdsSection: '194J', tdsCertificateReceived: false, currency: 'INR' });

    const second = await api.billing.payments.record.mutate(
      receipt(client.id, 399_500, {
        method: 'upi',
        allocations: [{ invoiceId: invoice.id, amount: 399_500 }],
      }),
    );
    expect(second.credit).toBe(0);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', balance: 0, amountPaid: 1_000_000 });

    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, first.id)));
    expect(log).toHaveLength(1);
    expect(log[0]?.action).toBe('payment.record');
    expect(log[0]?.summary).toMatch(/Sharma Traders.*TDS.*194J.*bank charges.*INV\/2026-27\/\d+/);
    const invoiceLog = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, invoice.id)));
    expect(invoiceLog.filter((l) => l.action === 'invoice.settle')).toHaveLength(2);
  });

  it('keeps an overpayment and an unallocated receipt as the client’s credit', async () => {
    const client = await seedClient(t, firm.org.id);
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 50_000);
    const api = t.client(firm.owner.token);
    const paid = await api.billing.payments.record.mutate(
      receipt(client.id, 80_000, { allocations: [{ invoiceId: invoice.id, amount: 50_000 }] }),
    );
    expect(paid).toMatchObject({ allocated: 50_000, credit: 30_000 });
    await api.billing.payments.record.mutate(receipt(client.id, 20_000));
    const account = await api.billing.payments.clientAccount.query({ clientId: client.id });
    expect(account).toMatchObject({ credit: 50_000, outstanding: 0, openInvoices: [] });
  });

  it('suggests the open invoices oldest due first, with the overdue ones marked', async () => {
    const client = await seedClient(t, firm.org.id);
    const later = await issuedInvoice(t, firm.org.id, client.id, 10_000, { dueDate: '2099-01-10' });
    const older = await issuedInvoice(t, firm.org.id, client.id, 20_000, {
      issueDate: '2026-01-01',
      dueDate: '2026-01-16',
    });
    const account = await t
      .client(firm.owner.token)
      .billing.payments.clientAccount.query({ clientId: client.id });
    expect(account.openInvoices.map((i) => i.id)).toEqual([older.id, later.id]);
    expect(account.openInvoices.map((i) => i.displayStatus)).toEqual(['overdue', 'issued']);
    expect(account.outstanding).toBe(30_000);
  });

  it('refuses allocations beyond a balance or beyond the money, and bad amounts, changing nothing', async () => {
    const client = await seedClient(t, firm.org.id);
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 10_000);
    const api = t.client(firm.owner.token);
    const beyond = api.billing.payments.record.mutate(
      receipt(client.id, 20_000, { allocations: [{ invoiceId: invoice.id, amount: 10_001 }] }),
    );
    await expect(beyond).rejects.toThrow(/left to pay/);
    await expect(
      api.billing.payments.record.mutate(
        receipt(client.id, 20_000, { allocations: [{ invoiceId: invoice.id, amount: 10_001 }] }),
      ),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST', fieldErrors: { 'allocations.0.amount': [expect.any(String)] } },
    });
    await expect(
      api.billing.payments.record.mutate(
        receipt(client.id, 5_000, {
          tdsAmount: 1_000,
          allocations: [{ invoiceId: invoice.id, amount: 6_001 }],
        }),
      ),
    ).rejects.toThrow(/More is allocated than was received/);
    for (const bad of [
      receipt(client.id, -1),
      receipt(client.id, 0),
      receipt(client.id, 1.5),
      receipt(client.id, 10 ** 14),
      receipt(client.id, Number.MAX_SAFE_INTEGER + 2),
      receipt(client.id, 100, { reference: 'UTR\u0000' }),
      receipt(client.id, 100, { receivedOn: '2226-01-01' }),
      receipt(client.id, 100, { receivedOn: '2026-02-30' }),
      receipt(client.id, 100, { method: 'barter' }),
      receipt(client.id, 100, { tdsSection: 'DROP TABLE' }),
      receipt(client.id, 100, {
        allocations: [
          { invoiceId: invoice.id, amount: 50 },
          { invoiceId: invoice.id, amount: 50 },
        ],
      }),
      receipt(client.id, 100, { allocations: [{ invoiceId: invoice.id, amount: -5 }] }),
      receipt(client.id, 100, { tdsSection: '194J' }),
    ]) {
      expect(await codeOf(api.billing.payments.record.mutate(bad as never)), JSON.stringify(bad)).toBe(
        'BAD_REQUEST',
      );
    }
    expect(await t.db.select().from(payments).where(eq(payments.clientId, client.id))).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'issued', balance: 10_000 });
  });

  it('refuses a draft, a void or another client’s invoice', async () => {
    const client = await seedClient(t, firm.org.id);
    const other = await seedClient(t, firm.org.id);
    const othersInvoice = await issuedInvoice(t, firm.org.id, other.id, 10_000);
    const voided = await issuedInvoice(t, firm.org.id, client.id, 10_000);
    await t.db.update(invoices).set({ status: 'void', balance: 0 }).where(eq(invoices.id, voided.id));
    const api = t.client(firm.owner.token);
    await expect(
      api.billing.payments.record.mutate(
        receipt(client.id, 100, { allocations: [{ invoiceId: othersInvoice.id, amount: 100 }] }),
      ),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await expect(
      api.billing.payments.record.mutate(
        receipt(client.id, 100, { allocations: [{ invoiceId: voided.id, amount: 100 }] }),
      ),
    ).rejects.toThrow(/is void/);
  });
});

describe('credit, refunds and reversals', () => {
  let firm: TFirm;
  beforeAll(async () => {
    firm = await billingFirm(t, 'Credit & Co');
  });

  it('applies credit from receipts and credit notes, oldest first, never beyond the credit', async () => {
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    const paid = await issuedInvoice(t, firm.org.id, client.id, 10_000, { issueDate: '2026-10-01' });
    await api.billing.payments.record.mutate(
      receipt(client.id, 10_000, {
        receivedOn: '2026-10-05',
        allocations: [{ invoiceId: paid.id, amount: 10_000 }],
      }),
    );
    // A credit note on a paid invoice settles nothing: all of it is credit.
    const note = await issuedCreditNote(t, firm.org.id, paid, 3_000, '2026-10-10');
    expect(await invoiceRow(note.id)).toMatchObject({ kind: 'credit_note' });
    const advance = await api.billing.payments.record.mutate(
      receipt(client.id, 5_000, { receivedOn: '2026-10-02' }),
    );
    const next = await issuedInvoice(t, firm.org.id, client.id, 7_000, { issueDate: '2026-11-01' });
    expect((await api.billing.payments.clientAccount.query({ clientId: client.id })).credit).toBe(8_000);

    await expect(
      api.billing.payments.applyCredit.mutate({
        clientId: client.id,
        allocations: [{ invoiceId: next.id, amount: 7_001 }],
      }),
    ).rejects.toThrow(/left to pay/);
    const applied = await api.billing.payments.applyCredit.mutate({
      clientId: client.id,
      appliedOn: '2026-11-02',
      allocations: [{ invoiceId: next.id, amount: 7_000 }],
    });
    expect(applied).toMatchObject({ applied: 7_000, credit: 1_000 });
    expect(await invoiceRow(next.id)).toMatchObject({ status: 'paid', balance: 0 });
    const rows = await t.db
      .select({
        paymentId: allocations.paymentId,
        creditNoteId: allocations.creditNoteId,
        amount: allocations.amount,
      })
      .from(allocations)
      .where(eq(allocations.invoiceId, next.id));
    // The advance of 2 October is older than the credit note of the 10th: it is used first.
    expect(rows).toEqual([
      { paymentId: advance.id, creditNoteId: null, amount: 5_000 },
      { paymentId: null, creditNoteId: note.id, amount: 2_000 },
    ]);
    const third = await issuedInvoice(t, firm.org.id, client.id, 5_000);
    await expect(
      api.billing.payments.applyCredit.mutate({
        clientId: client.id,
        allocations: [{ invoiceId: third.id, amount: 1_001 }],
      }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST', fieldErrors: { allocations: [expect.stringMatching(/credit/)] } },
    });
  });

  it('refunds credit, never more than there is, and refuses to reverse a receipt whose credit was refunded', async () => {
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    const advance = await api.billing.payments.record.mutate(receipt(client.id, 10_000));
    const refundInput = {
      clientId: client.id,
      paidOn: '2026-11-25',
      method: 'bank_transfer' as const,
      amount: 10_001,
    };
    await expect(api.billing.payments.refund.mutate(refundInput)).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST', fieldErrors: { amount: [expect.stringMatching(/refund no more than/)] } },
    });
    await expect(api.billing.payments.refund.mutate({ ...refundInput, amount: 0 })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    const refund = await api.billing.payments.refund.mutate({ ...refundInput, amount: 4_000 });
    expect(refund.credit).toBe(6_000);
    await expect(
      api.billing.payments.reverse.mutate({ paymentId: advance.id, reason: 'Bounced' }),
    ).rejects.toThrow(/reverse that refund first/);
    await api.billing.payments.reverse.mutate({ paymentId: refund.id, reason: 'Sent to the wrong account' });
    await api.billing.payments.reverse.mutate({ paymentId: advance.id, reason: 'Cheque bounced' });
    expect((await api.billing.payments.clientAccount.query({ clientId: client.id })).credit).toBe(0);
    await expect(
      api.billing.payments.reverse.mutate({ paymentId: advance.id, reason: 'Again' }),
    ).rejects.toThrow(/reversed already/);
  });

  it('reverses a payment: its allocations are kept as reversed and the invoices reopen', async () => {
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    const a = await issuedInvoice(t, firm.org.id, client.id, 6_000);
    const b = await issuedInvoice(t, firm.org.id, client.id, 4_000);
    const paid = await api.billing.payments.record.mutate(
      receipt(client.id, 10_000, {
        method: 'cheque',
        reference: 'CHQ 000123',
        allocations: [
          { invoiceId: a.id, amount: 6_000 },
          { invoiceId: b.id, amount: 4_000 },
        ],
      }),
    );
    expect((await invoiceRow(a.id)).status).toBe('paid');
    await expect(
      api.billing.payments.reverse.mutate({ paymentId: paid.id, reason: '' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    const reversed = await api.billing.payments.reverse.mutate({
      paymentId: paid.id,
      reason: 'Cheque bounced',
    });
    expect(reversed.reopened).toBe(2);
    expect(await invoiceRow(a.id)).toMatchObject({ status: 'issued', balance: 6_000, amountPaid: 0 });
    expect(await invoiceRow(b.id)).toMatchObject({ status: 'issued', balance: 4_000 });
    const detail = await api.billing.payments.get.query({ paymentId: paid.id });
    expect(detail.reverseReason).toBe('Cheque bounced');
    expect(detail.reversedBy).toBe('Olivia Owner');
    expect(detail.allocations).toHaveLength(2);
    expect(detail.allocations.every((x) => x.reversedAt)).toBe(true);
    expect(detail.unallocated).toBe(0);
    // Never deleted: the row is there, reversed.
    expect(await t.db.select().from(payments).where(eq(payments.id, paid.id))).toHaveLength(1);
  });

  it('takes back one allocation of a credit note so its invoice can be voided', async () => {
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 9_000);
    const note = await issuedCreditNote(t, firm.org.id, invoice, 2_000);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'partly_paid', balance: 7_000 });
    const [allocation] = await t.db.select().from(allocations).where(eq(allocations.creditNoteId, note.id));
    if (!allocation) throw new Error('the credit note settled nothing');
    await api.billing.payments.reverseAllocation.mutate({ allocationId: allocation.id });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'issued', balance: 9_000 });
    expect((await api.billing.payments.clientAccount.query({ clientId: client.id })).credit).toBe(2_000);
    await expect(
      api.billing.payments.reverseAllocation.mutate({ allocationId: allocation.id }),
    ).rejects.toThrow(/taken back already/);
  });

  it('refuses to void a credit note whose credit was refunded, until the refund is reversed', async () => {
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    const invoice = await issuedInvoice(t, firm.org.id, client.id, 5_000);
    await api.billing.payments.record.mutate(
      receipt(client.id, 5_000, { allocations: [{ invoiceId: invoice.id, amount: 5_000 }] }),
    );
    const note = await issuedCreditNote(t, firm.org.id, invoice, 3_000);
    const refund = await api.billing.payments.refund.mutate({
      clientId: client.id,
      paidOn: '2026-11-25',
      method: 'upi',
      amount: 3_000,
    });
    const actor = { kind: 'system' as const, orgId: firm.org.id };
    await expect(
      t.db.transaction((tx) => voidInvoice(tx, actor, note.id, 'Raised in error')),
    ).rejects.toThrow(/reverse the refund/);
    await api.billing.payments.reverse.mutate({ paymentId: refund.id, reason: 'Not paid out after all' });
    await t.db.transaction((tx) => voidInvoice(tx, actor, note.id, 'Raised in error'));
    expect((await api.billing.payments.clientAccount.query({ clientId: client.id })).credit).toBe(0);
  });

  it('keeps the TDS certificate’s paperwork editable, and lists the certificates still due', async () => {
    const client = await seedClient(t, firm.org.id, { name: 'Certificate Client' });
    const api = t.client(firm.owner.token);
    const withTds = await api.billing.payments.record.mutate(
      receipt(client.id, 9_000, { tdsAmount: 1_000, tdsSection: '194J' }),
    );
    const plain = await api.billing.payments.record.mutate(receipt(client.id, 5_000));
    const pending = await api.billing.payments.list.query({ tds: 'pending', clientId: client.id });
    expect(pending.rows.map((r) => r.id)).toEqual([withTds.id]);
    await api.billing.payments.update.mutate({
      paymentId: withTds.id,
      reference: 'NEFT 42',
      notes: '',
      tdsSection: '194J',
      tdsCertificateReceived: true,
    });
    expect((await api.billing.payments.list.query({ tds: 'pending', clientId: client.id })).total).toBe(0);
    const [entry] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.recordId, withTds.id), eq(systemLog.action, 'payment.update')));
    expect(entry?.changes).toMatchObject({ tdsCertificateReceived: { from: false, to: true } });
    await expect(
      api.billing.payments.update.mutate({
        paymentId: plain.id,
        reference: '',
        notes: '',
        tdsSection: null,
        tdsCertificateReceived: true,
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });
});

describe('the payments list', () => {
  it('filters by date, method, client, TDS and reversal, sorts, and searches references', async () => {
    const firm = await billingFirm(t, 'List & Co');
    const api = t.client(firm.owner.token);
    const alpha = await seedClient(t, firm.org.id, { name: 'Alpha Exports' });
    const beta = await seedClient(t, firm.org.id, { name: 'Beta Foods' });
    const p1 = await api.billing.payments.record.mutate(
      receipt(alpha.id, 1_000, { receivedOn: '2026-04-01', reference: 'UTR-A1' }),
    );
    const p2 = await api.billing.payments.record.mutate(
      receipt(beta.id, 3_000, {
        receivedOn: '2026-05-01',
        method: 'cash',
        tdsAmount: 100,
        tdsSection: '194C',
      }),
    );
    const p3 = await api.billing.payments.record.mutate(
      receipt(beta.id, 2_000, { receivedOn: '2026-06-01', method: 'upi' }),
    );
    await api.billing.payments.reverse.mutate({ paymentId: p3.id, reason: 'Duplicate' });
    const ids = async (input: Record<string, unknown>) =>
      (await api.billing.payments.list.query(input as never)).rows.map((r) => r.id);
    expect(await ids({})).toEqual([p3.id, p2.id, p1.id]);
    expect(await ids({ sort: 'amount', direction: 'asc' })).toEqual([p1.id, p3.id, p2.id]);
    expect(await ids({ sort: 'client', direction: 'asc' })).toEqual([p1.id, p2.id, p3.id]);
    expect(await ids({ from: '2026-04-15', to: '2026-05-31' })).toEqual([p2.id]);
    expect(await ids({ method: 'cash' })).toEqual([p2.id]);
    expect(await ids({ clientId: alpha.id })).toEqual([p1.id]);
    expect(await ids({ tds: 'yes' })).toEqual([p2.id]);
    expect(await ids({ reversed: 'yes' })).toEqual([p3.id]);
    expect(await ids({ reversed: 'no', tds: 'no' })).toEqual([p1.id]);
    expect(await ids({ search: 'utr-a' })).toEqual([p1.id]);
    expect(await ids({ search: 'beta' })).toEqual([p3.id, p2.id]);
    const page = await api.billing.payments.list.query({ page: 2, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, page: 2 });
    expect(page.rows.map((r) => r.id)).toEqual([p1.id]);
    await expect(
      api.billing.payments.list.query({ from: '2026-06-01', to: '2026-01-01' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });
});

describe('who may see and change payments', () => {
  it('answers NOT_FOUND for another firm’s clients, invoices and payments, and changes nothing there', async () => {
    const mine = await billingFirm(t, 'Mine & Co');
    const theirs = await billingFirm(t, 'Theirs & Co');
    const myClient = await seedClient(t, mine.org.id);
    const theirClient = await seedClient(t, theirs.org.id);
    const theirInvoice = await issuedInvoice(t, theirs.org.id, theirClient.id, 5_000);
    const theirApi = t.client(theirs.owner.token);
    const theirPayment = await theirApi.billing.payments.record.mutate(receipt(theirClient.id, 9_000));
    const api = t.client(mine.owner.token);
    const attempts = [
      () => api.billing.payments.record.mutate(receipt(theirClient.id, 100)),
      () =>
        api.billing.payments.record.mutate(
          receipt(myClient.id, 100, { allocations: [{ invoiceId: theirInvoice.id, amount: 100 }] }),
        ),
      () =>
        api.billing.payments.applyCredit.mutate({
          clientId: theirClient.id,
          allocations: [{ invoiceId: theirInvoice.id, amount: 1 }],
        }),
      () =>
        api.billing.payments.refund.mutate({
          clientId: theirClient.id,
          paidOn: '2026-11-01',
          method: 'cash',
          amount: 1,
        }),
      () => api.billing.payments.reverse.mutate({ paymentId: theirPayment.id, reason: 'Mine now' }),
      () =>
        api.billing.payments.update.mutate({
          paymentId: theirPayment.id,
          reference: 'x',
          notes: '',
          tdsSection: null,
          tdsCertificateReceived: false,
        }),
      () => api.billing.payments.get.query({ paymentId: theirPayment.id }),
      () => api.billing.payments.clientAccount.query({ clientId: theirClient.id }),
      () =>
        api.billing.statements.get.query({ clientId: theirClient.id, from: '2026-01-01', to: '2026-12-31' }),
    ];
    for (const attempt of attempts) expect(await codeOf(attempt)).toBe('NOT_FOUND');
    expect((await api.billing.payments.list.query({})).rows).toEqual([]);
    expect((await api.billing.payments.list.query({ clientId: theirClient.id })).rows).toEqual([]);
    const [stillTheirs] = await t.db.select().from(payments).where(eq(payments.id, theirPayment.id));
    expect(stillTheirs?.reversedAt).toBeNull();
    expect(await invoiceRow(theirInvoice.id)).toMatchObject({ balance: 5_000 });
  });

  it('limits a member with assigned clients only to theirs, and needs billing.collect to change money', async () => {
    const firm = await billingFirm(t, 'Teams & Co');
    const mineClient = await seedClient(t, firm.org.id, { name: 'Assigned Client' });
    const hidden = await seedClient(t, firm.org.id, { name: 'Hidden Client' });
    const limited = await memberWith(t, firm.org.id, ['clients.view', 'billing.view', 'billing.collect'], {
      assignedClientsOnly: true,
    });
    await putOnTeam(t, firm.org.id, mineClient.id, limited.id);
    const owner = t.client(firm.owner.token);
    const hiddenPayment = await owner.billing.payments.record.mutate(receipt(hidden.id, 1_000));
    const api = t.client(limited.token);
    const own = await api.billing.payments.record.mutate(receipt(mineClient.id, 2_000));
    expect((await api.billing.payments.list.query({})).rows.map((r) => r.id)).toEqual([own.id]);
    expect(await codeOf(api.billing.payments.get.query({ paymentId: hiddenPayment.id }))).toBe('NOT_FOUND');
    expect(await codeOf(api.billing.payments.record.mutate(receipt(hidden.id, 1)))).toBe('NOT_FOUND');
    expect(
      await codeOf(api.billing.payments.reverse.mutate({ paymentId: hiddenPayment.id, reason: 'x' })),
    ).toBe('NOT_FOUND');
    expect((await api.billing.payments.clientOptions.query({})).map((c) => c.name)).toEqual([
      'Assigned Client',
    ]);

    const viewer = await memberWith(t, firm.org.id, ['clients.view', 'billing.view']);
    const viewerApi = t.client(viewer.token);
    expect((await viewerApi.billing.payments.list.query({})).total).toBe(2);
    expect(await codeOf(viewerApi.billing.payments.record.mutate(receipt(mineClient.id, 1)))).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(t.client(firm.staff.token).billing.payments.list.query({}))).toBe('FORBIDDEN');
  });
});
