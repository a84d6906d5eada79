import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSettings, invoices, orgs } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';
import { createDraft, issueInvoice, voidInvoice } from '.';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const line = (description: string, rate: number) => ({
  description,
  serviceId: null,
  taxCode: '998231',
  quantityMilli: 1000,
  rate,
  discount: 0,
  taxRateBp: 1800,
});

async function gstFirm(name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(orgs)
    .set({ currency: 'INR', country: 'IN', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  await t.db
    .insert(billingSettings)
    .values({ orgId: firm.org.id, taxRegime: 'gst', gstState: '27', roundTotals: true });
  const local = await seedClient(t, firm.org.id, { name: `${name} local` });
  return { firm, local };
}

describe('the invoice ledger', () => {
  it('issues a draft with the next number of the fiscal year, taxes within the state, and voids it', async () => {
    const { firm, local } = await gstFirm('Ledger & Co');
    const actor = { kind: 'member' as const, orgId: firm.org.id, memberId: firm.owner.id };
    const draft = await t.db.transaction((tx) =>
      createDraft(tx, firm.org.id, {
        clientId: local.id,
        lines: [line('Return', 100_033)],
        createdBy: firm.owner.id,
      }),
    );
    const issued = await t.db.transaction((tx) =>
      issueInvoice(tx, actor, draft.id, { issueDate: '2026-11-28', memberId: firm.owner.id }),
    );
    expect(issued).toMatchObject({
      number: 'INV/2026-27/0001',
      status: 'issued',
      subtotal: 100_033,
      taxTotal: 18_006,
    });
    expect(issued.total).toBe(118_000);
    expect(issued.roundOff).toBe(-39);
    expect(issued.dueDate).toBe('2026-12-13');
    await expect(
      t.db.transaction((tx) => issueInvoice(tx, actor, draft.id, { memberId: firm.owner.id })),
    ).rejects.toThrow(/credit note/);
    const voided = await t.db.transaction((tx) => voidInvoice(tx, actor, draft.id, 'Raised twice'));
    expect(voided).toMatchObject({ status: 'void', number: 'INV/2026-27/0001' });
  });

  it('settles the invoice a credit note corrects: amount paid, balance and status move', async () => {
    const { firm, local } = await gstFirm('Credit & Co');
    const actor = { kind: 'member' as const, orgId: firm.org.id, memberId: firm.owner.id };
    const issue = (id: string) =>
      t.db.transaction((tx) => issueInvoice(tx, actor, id, { issueDate: '2026-11-28', memberId: null }));
    const draft = await t.db.transaction((tx) =>
      createDraft(tx, firm.org.id, { clientId: local.id, lines: [line('Audit', 100_000)], createdBy: null }),
    );
    const invoice = await issue(draft.id);
    const note = await t.db.transaction((tx) =>
      createDraft(tx, firm.org.id, {
        clientId: local.id,
        kind: 'credit_note',
        creditForId: invoice.id,
        lines: [line('Audit, fee reduced', 50_000)],
        createdBy: null,
      }),
    );
    await issue(note.id);
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toMatchObject({
      total: 118_000,
      amountPaid: 59_000,
      balance: 59_000,
      status: 'partly_paid',
    });
  });

  it('refuses to issue an empty draft', async () => {
    const { firm, local } = await gstFirm('Empty & Co');
    const actor = { kind: 'member' as const, orgId: firm.org.id, memberId: firm.owner.id };
    const draft = await t.db.transaction((tx) =>
      createDraft(tx, firm.org.id, { clientId: local.id, lines: [], createdBy: null }),
    );
    await expect(
      t.db.transaction((tx) => issueInvoice(tx, actor, draft.id, { memberId: null })),
    ).rejects.toThrow(/at least one line/);
  });

  it('numbers many invoices issued at once consecutively, with no gap and no duplicate', async () => {
    const { firm, local } = await gstFirm('Rush & Co');
    const actor = { kind: 'member' as const, orgId: firm.org.id, memberId: firm.owner.id };
    const drafts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.db.transaction((tx) =>
          createDraft(tx, firm.org.id, {
            clientId: local.id,
            lines: [line(`Work ${i}`, 1000 + i)],
            createdBy: null,
          }),
        ),
      ),
    );
    await Promise.all(
      drafts.map((d) =>
        t.db.transaction((tx) => issueInvoice(tx, actor, d.id, { issueDate: '2027-01-05', memberId: null })),
      ),
    );
    const rows = await t.db
      .select({ seq: invoices.seq, number: invoices.number })
      .from(invoices)
      .where(eq(invoices.orgId, firm.org.id));
    expect(rows.map((r) => r.seq).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(new Set(rows.map((r) => r.number)).size).toBe(12);
  });
});
