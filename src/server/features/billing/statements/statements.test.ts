import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../../domain/days';
import { createTestApp, type TTestApp } from '../../../test/app';
import { billingFirm, issuedCreditNote, issuedInvoice, memberWith } from '../../../test/billing';
import { seedClient } from '../../../test/fixtures';

/** The PDF's words as Debian's poppler reads them (pdftotext from standard input). */
const pdfWords = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("a client's statement", () => {
  it('runs from the opening balance through invoices, credit notes, payments with TDS, refunds and reversals', async () => {
    const firm = await billingFirm(t, 'Statement & Co');
    const api = t.client(firm.owner.token);
    const client = await seedClient(t, firm.org.id, { name: 'Statement Client' });
    const a = await issuedInvoice(t, firm.org.id, client.id, 10_000, { issueDate: '2026-04-10' });
    await api.billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-04-20',
      method: 'bank_transfer',
      reference: 'UTR-1',
      amount: 8_500,
      tdsAmount: 1_000,
      tdsSection: '194J',
      bankCharges: 500,
      allocations: [{ invoiceId: a.id, amount: 10_000 }],
    });
    const b = await issuedInvoice(t, firm.org.id, client.id, 5_000, {
      issueDate: '2026-05-05',
      dueDate: '2026-05-20',
    });
    const note = await issuedCreditNote(t, firm.org.id, b, 1_000, '2026-05-10');
    await api.billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-06-01',
      method: 'cheque',
      reference: 'CHQ 7',
      amount: 6_000,
      allocations: [{ invoiceId: b.id, amount: 4_000 }],
    });
    await api.billing.payments.refund.mutate({
      clientId: client.id,
      paidOn: '2026-06-10',
      method: 'upi',
      reference: 'REF-1',
      amount: 500,
    });
    const bounced = await api.billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-06-15',
      method: 'cheque',
      reference: 'CHQ 8',
      amount: 300,
    });
    await api.billing.payments.reverse.mutate({ paymentId: bounced.id, reason: 'Cheque bounced' });

    const period = await api.billing.statements.get.query({
      clientId: client.id,
      from: '2026-05-01',
      to: '2026-06-30',
    });
    expect(period.openingBalance).toBe(0);
    expect(period.entries.map((e) => [e.date, e.kind, e.reference, e.debit, e.credit, e.balance])).toEqual([
      ['2026-05-05', 'invoice', b.number, 5_000, 0, 5_000],
      ['2026-05-10', 'credit_note', note.number, 0, 1_000, 4_000],
      ['2026-06-01', 'payment', 'CHQ 7', 0, 6_000, -2_000],
      ['2026-06-10', 'refund', 'REF-1', 500, 0, -1_500],
      ['2026-06-15', 'payment', 'CHQ 8', 0, 300, -1_800],
    ]);
    expect(period.entries[1]?.detail).toBe(b.number);
    expect(period.closingBalance).toBe(-1_800);
    expect(period.totals).toEqual({ debit: 5_500, credit: 7_300 });

    const april = await api.billing.statements.get.query({
      clientId: client.id,
      from: '2026-04-01',
      to: '2026-04-30',
    });
    expect(april.entries.map((e) => [e.kind, e.debit, e.credit, e.detail])).toEqual([
      ['invoice', 10_000, 0, ''],
      ['payment', 0, 8_500, 'bank_transfer'],
      ['tds', 0, 1_000, '194J'],
      ['bank_charges', 0, 500, ''],
    ]);
    expect(april.closingBalance).toBe(0);

    const mid = await api.billing.statements.get.query({
      clientId: client.id,
      from: '2026-05-01',
      to: '2026-05-15',
    });
    expect(mid.aging).toEqual({ current: 4_000, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 });
    const late = await api.billing.statements.get.query({
      clientId: client.id,
      from: '2026-05-01',
      to: '2026-07-31',
    });
    // B was settled on 1 June: nothing owed at the end of July.
    expect(late.aging.d31_60 + late.aging.d1_30 + late.aging.current).toBe(0);

    const all = await api.billing.statements.get.query({
      clientId: client.id,
      from: '2026-04-01',
      to: '2036-03-31',
    });
    const reversal = all.entries.at(-1);
    expect(reversal).toMatchObject({ kind: 'payment_reversed', debit: 300, detail: 'Cheque bounced' });
    expect(reversal?.date).toBe(todayIn('Asia/Kolkata'));
    // Closes at invoices less payments and credits: what is owed less the credit held.
    const account = await api.billing.payments.clientAccount.query({ clientId: client.id });
    expect(all.closingBalance).toBe(account.outstanding - account.credit);
    expect(all.closingBalance).toBe(-1_500);

    // The same statement as a PDF, read back by poppler.
    const res = await fetch(
      `${t.url}/api/billing/clients/${client.id}/statement.pdf?from=2026-05-01&to=2026-06-30`,
      { headers: { authorization: `Bearer ${firm.owner.token}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const words = pdfWords(Buffer.from(await res.arrayBuffer()));
    expect(words).toContain('Statement Client');
    expect(words).toContain(b.number ?? 'no number');
    expect(words).toContain('CHQ 7');
    expect(words).toContain('₹60.00');
    expect(words).toMatch(/Reversed|Refund/);
  });

  it('refuses a bad period, another firm’s client and a client the member is not assigned to', async () => {
    const firm = await billingFirm(t, 'Statement Scope & Co');
    const client = await seedClient(t, firm.org.id);
    const api = t.client(firm.owner.token);
    for (const bad of [
      { from: '2026-06-01', to: '2026-05-01' },
      { from: '2010-01-01', to: '2026-05-01' },
      { from: '2026-02-30', to: '2026-05-01' },
      { from: '2026-01-01\u0000', to: '2026-05-01' },
    ]) {
      await expect(api.billing.statements.get.query({ clientId: client.id, ...bad })).rejects.toMatchObject({
        data: { code: 'BAD_REQUEST' },
      });
    }
    const limited = await memberWith(t, firm.org.id, ['clients.view', 'billing.view'], {
      assignedClientsOnly: true,
    });
    await expect(
      t
        .client(limited.token)
        .billing.statements.get.query({ clientId: client.id, from: '2026-01-01', to: '2026-12-31' }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });
});
