import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSettings, invoices, orgs } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedDraft, seedInvoice, seedReceipt } from '../../test/billing';
import { seedPortalWorld } from '../../test/portal-world';
import { voidInvoice } from '../billing';

// The client's invoices in the portal: what the firm issued, owing first, Overdue derived, never a
// draft or another client's; and what is owed on the home.

let t: TTestApp;
let w: Awaited<ReturnType<typeof seedPortalWorld>>;
let ids: Record<'overdue' | 'later' | 'paid' | 'voided' | 'credit' | 'draft', string>;

const dueOn = (id: string, dueDate: string) =>
  t.db.update(invoices).set({ dueDate }).where(eq(invoices.id, id));

beforeAll(async () => {
  t = await createTestApp();
  w = await seedPortalWorld(t);
  const o = w.firm.org.id;
  const clientId = w.own.client.id;
  const issue = (issueDate: string, description: string, rate: number) =>
    seedInvoice(t, o, { clientId, issueDate, lines: [{ description, rate }] });
  const overdue = await issue('2026-03-01', 'Tax audit', 100_000);
  await dueOn(overdue.id, '2026-03-16');
  const later = await issue('2026-10-01', 'Quarterly returns', 50_000);
  await dueOn(later.id, '2099-01-01');
  await dueOn(w.own.invoice.id, '2099-06-01');
  const paid = await issue('2026-05-01', 'Bookkeeping, April', 30_000);
  await seedReceipt(t, o, {
    clientId,
    receivedOn: '2026-05-10',
    amount: 30_000,
    allocate: [{ invoiceId: paid.id, amount: 30_000 }],
  });
  const voided = await issue('2026-07-01', 'Raised twice', 20_000);
  await t.db.transaction((tx) => voidInvoice(tx, { kind: 'system', orgId: o }, voided.id, 'Raised twice'));
  const credit = await seedInvoice(t, o, {
    clientId,
    kind: 'credit_note',
    creditForId: overdue.id,
    issueDate: '2026-04-01',
    lines: [{ description: 'Tax audit, fee reduced', rate: 10_000 }],
  });
  const draft = await seedDraft(t, o, { clientId, lines: [{ description: 'Not yet', rate: 9_999 }] });
  ids = {
    overdue: overdue.id,
    later: later.id,
    paid: paid.id,
    voided: voided.id,
    credit: credit.id,
    draft: draft.id,
  };
}, 120_000);
afterAll(() => t?.close());

describe('invoices in the portal', () => {
  it('lists what the firm issued, what is owed first (soonest due), then the rest newest first', async () => {
    const list = await w.portal.client.clientPortalInvoices.list.query({ clientId: w.own.client.id });
    expect(list.rows.map((r) => [r.id, r.kind, r.displayStatus, r.total, r.balance])).toEqual([
      // 100,000 less the 10,000 credit note, due in March: overdue.
      [ids.overdue, 'invoice', 'overdue', 100_000, 90_000],
      [ids.later, 'invoice', 'issued', 50_000, 50_000],
      [w.own.invoice.id, 'invoice', 'issued', 250_000, 250_000],
      [ids.voided, 'invoice', 'void', 20_000, 0],
      [ids.paid, 'invoice', 'paid', 30_000, 0],
      [ids.credit, 'credit_note', 'issued', 10_000, 0],
    ]);
    expect(list.total).toBe(6);
    expect(list.rows[0]).toMatchObject({ number: expect.stringMatching(/^INV\//), dueDate: '2026-03-16' });
    expect(list.balance).toEqual({
      outstanding: 390_000,
      overdue: 90_000,
      overdueCount: 1,
      hasInvoices: true,
    });
    const text = JSON.stringify(list);
    for (const hidden of [ids.draft, 'Not yet', 'Sibling', 'Raised twice', 'issuedBy', 'standard']) {
      expect(text).not.toContain(hidden);
    }
    const second = await w.portal.client.clientPortalInvoices.list.query({
      clientId: w.own.client.id,
      page: 2,
      pageSize: 4,
    });
    expect(second.rows.map((r) => r.id)).toEqual([ids.paid, ids.credit]);
  });

  it('opens one with its lines as printed; a draft, another client’s or firm’s is NOT_FOUND', async () => {
    const invoice = await w.portal.client.clientPortalInvoices.get.query({
      clientId: w.own.client.id,
      invoiceId: ids.overdue,
    });
    expect(invoice).toMatchObject({
      total: 100_000,
      balance: 90_000,
      displayStatus: 'overdue',
      creditFor: null,
    });
    expect(invoice.lines).toEqual([
      expect.objectContaining({
        description: 'Tax audit',
        quantityMilli: 1000,
        rate: 100_000,
        amount: 100_000,
      }),
    ]);
    const credit = await w.portal.client.clientPortalInvoices.get.query({
      clientId: w.own.client.id,
      invoiceId: ids.credit,
    });
    expect(credit.creditFor).toEqual({ id: ids.overdue, number: invoice.number });
    for (const [clientId, invoiceId] of [
      [w.own.client.id, ids.draft],
      [w.own.client.id, w.sibling.invoice.id],
      [w.sibling.client.id, w.sibling.invoice.id],
      [w.far.client.id, w.far.invoice.id],
    ] as const) {
      await expect(
        w.portal.client.clientPortalInvoices.get.query({ clientId, invoiceId }),
      ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
  });

  it('gives an INR invoice with something to pay a UPI link for its balance, once the firm has a UPI ID', async () => {
    const query = () => w.portal.client.clientPortalInvoices.list.query({ clientId: w.own.client.id });
    // The firm bills in dollars and has no UPI ID: no link anywhere.
    expect((await query()).rows.every((r) => r.upiUri === null)).toBe(true);
    await t.db.update(orgs).set({ legalName: 'Sharma & Associates LLP' }).where(eq(orgs.id, w.firm.org.id));
    await t.db.insert(billingSettings).values({ orgId: w.firm.org.id, upiVpa: 'sharma@okhdfcbank' });
    expect((await query()).rows.every((r) => r.upiUri === null)).toBe(true);
    // Invoices in rupees (as a firm in India issues them).
    await t.db.update(invoices).set({ currency: 'INR' }).where(eq(invoices.clientId, w.own.client.id));
    const rows = (await query()).rows;
    const overdue = rows.find((r) => r.id === ids.overdue);
    expect(overdue?.upiUri).toBe(
      `upi://pay?pa=sharma@okhdfcbank&pn=Sharma%20%26%20Associates%20LLP&am=900.00&cu=INR&tn=Invoice%20${encodeURIComponent(overdue?.number ?? '')}&tr=${encodeURIComponent(overdue?.number ?? '')}`,
    );
    // Paid, void and credit notes have nothing to pay.
    expect(rows.filter((r) => r.upiUri).map((r) => r.id)).toEqual([ids.overdue, ids.later, w.own.invoice.id]);
    const one = await w.portal.client.clientPortalInvoices.get.query({
      clientId: w.own.client.id,
      invoiceId: ids.later,
    });
    expect(one.upiUri).toContain('am=500.00');
  });

  it('shows on the home what is owed and how many invoices are overdue', async () => {
    const home = await w.portal.client.clientPortalHome.get.query({ clientId: w.own.client.id });
    expect(home.billing).toEqual({
      outstanding: 390_000,
      overdue: 90_000,
      overdueCount: 1,
      hasInvoices: true,
    });
    // A client the firm never billed: nothing owed, and the home leaves billing out.
    expect(await seedInvoiceless()).toEqual({
      outstanding: 0,
      overdue: 0,
      overdueCount: 0,
      hasInvoices: false,
    });
  });
});

/** A client of the firm with no invoice at all, as its portal user sees the home. */
async function seedInvoiceless() {
  const { seedPortalUser } = await import('../../test/portal');
  const { seedClient } = await import('../../test/fixtures');
  const client = await seedClient(t, w.firm.org.id, { name: 'New client' });
  const user = await seedPortalUser(t, { orgId: w.firm.org.id, clientIds: [client.id] });
  return (await user.client.clientPortalHome.get.query({ clientId: client.id })).billing;
}
