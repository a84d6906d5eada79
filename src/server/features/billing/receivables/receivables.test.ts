import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../../domain/days';
import { clientGroups, clientTeam } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { billingFirm, issuedInvoice, memberWith } from '../../../test/billing';
import { putOnTeam, seedClient } from '../../../test/fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** An invoice due `pastDue` days before the firm's today (negative: not yet due). */
async function owing(orgId: string, clientId: string, amount: number, pastDue: number) {
  const due = addDays(todayIn('Asia/Kolkata'), -pastDue);
  return issuedInvoice(t, orgId, clientId, amount, { issueDate: addDays(due, -15), dueDate: due });
}

describe('receivables aging', () => {
  it('buckets open balances by days past due, by client, group and partner, with credit and totals', async () => {
    const firm = await billingFirm(t, 'Aging & Co');
    const api = t.client(firm.owner.token);
    const [group] = await t.db
      .insert(clientGroups)
      .values({ orgId: firm.org.id, name: 'Exporters' })
      .returning();
    if (!group) throw new Error('no group');
    const alpha = await seedClient(t, firm.org.id, { name: 'Alpha Exports', groupId: group.id });
    const beta = await seedClient(t, firm.org.id, { name: 'Beta Exports', groupId: group.id });
    const gamma = await seedClient(t, firm.org.id, { name: 'Gamma Stores' });
    const delta = await seedClient(t, firm.org.id, { name: 'Delta Advance' });
    const partner = await memberWith(t, firm.org.id, ['clients.view'], { firstName: 'Parvati' });
    await t.db.insert(clientTeam).values([
      { orgId: firm.org.id, clientId: alpha.id, memberId: partner.id, responsibility: 'Partner in charge' },
      { orgId: firm.org.id, clientId: gamma.id, memberId: partner.id, responsibility: 'Partner in charge' },
      { orgId: firm.org.id, clientId: beta.id, memberId: firm.owner.id, responsibility: 'Manager' },
    ]);
    await owing(firm.org.id, alpha.id, 1_000, -5); // current
    await owing(firm.org.id, alpha.id, 2_000, 0); // due today: current
    await owing(firm.org.id, alpha.id, 3_000, 1); // 1-30
    await owing(firm.org.id, alpha.id, 4_000, 30); // 1-30
    await owing(firm.org.id, beta.id, 5_000, 31); // 31-60
    await owing(firm.org.id, beta.id, 6_000, 61); // 61-90
    const old = await owing(firm.org.id, gamma.id, 7_000, 91); // 90+
    await api.billing.payments.record.mutate({
      clientId: gamma.id,
      receivedOn: '2026-11-01',
      method: 'cash',
      amount: 2_000,
      allocations: [{ invoiceId: old.id, amount: 2_000 }],
    });
    // A paid invoice and a void one are not owed.
    const paid = await owing(firm.org.id, gamma.id, 9_000, 100);
    await api.billing.payments.record.mutate({
      clientId: gamma.id,
      receivedOn: '2026-11-01',
      method: 'cash',
      amount: 9_500,
      allocations: [{ invoiceId: paid.id, amount: 9_000 }],
    });
    await api.billing.payments.record.mutate({
      clientId: delta.id,
      receivedOn: '2026-11-01',
      method: 'upi',
      amount: 800,
    });

    const byClient = await api.billing.receivables.aging.query({ by: 'client' });
    expect(byClient.total).toBe(4);
    expect(
      byClient.rows.map((r) => [
        r.name,
        r.current,
        r.d1_30,
        r.d31_60,
        r.d61_90,
        r.d90_plus,
        r.outstanding,
        r.credit,
      ]),
    ).toEqual([
      ['Beta Exports', 0, 0, 5_000, 6_000, 0, 11_000, 0],
      ['Alpha Exports', 3_000, 7_000, 0, 0, 0, 10_000, 0],
      ['Gamma Stores', 0, 0, 0, 0, 5_000, 5_000, 500],
      ['Delta Advance', 0, 0, 0, 0, 0, 0, 800],
    ]);
    expect(byClient.totals).toMatchObject({
      clients: 4,
      current: 3_000,
      d1_30: 7_000,
      d31_60: 5_000,
      d61_90: 6_000,
      d90_plus: 5_000,
      outstanding: 26_000,
      credit: 1_300,
    });

    const byGroup = await api.billing.receivables.aging.query({
      by: 'group',
      sort: 'name',
      direction: 'asc',
    });
    expect(byGroup.rows.map((r) => [r.id, r.name, r.clients, r.outstanding, r.credit])).toEqual([
      [null, null, 2, 5_000, 1_300],
      [group.id, 'Exporters', 2, 21_000, 0],
    ]);
    const byPartner = await api.billing.receivables.aging.query({ by: 'partner' });
    expect(byPartner.rows.map((r) => [r.id, r.name, r.clients, r.outstanding])).toEqual([
      [partner.id, 'Parvati Member', 2, 15_000],
      [null, null, 2, 11_000],
    ]);

    const page2 = await api.billing.receivables.aging.query({ by: 'client', page: 2, pageSize: 3 });
    expect(page2.rows.map((r) => r.name)).toEqual(['Delta Advance']);
    expect(page2.totals?.outstanding).toBe(26_000);
    const beyond = await api.billing.receivables.aging.query({ by: 'client', page: 9, pageSize: 3 });
    expect(beyond).toMatchObject({ rows: [], total: 4 });
    expect(beyond.totals?.outstanding).toBe(26_000);
    const found = await api.billing.receivables.aging.query({ by: 'client', search: 'gamma' });
    expect(found.rows.map((r) => r.name)).toEqual(['Gamma Stores']);
    expect(found.totals?.outstanding).toBe(5_000);
    await expect(api.billing.receivables.aging.query({ by: 'planet' as never })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  }, 120_000);

  it('shows a member limited to assigned clients only theirs, and another firm nothing', async () => {
    const firm = await billingFirm(t, 'Scoped Aging & Co');
    const mine = await seedClient(t, firm.org.id, { name: 'Visible Debtor' });
    const hidden = await seedClient(t, firm.org.id, { name: 'Hidden Debtor' });
    await owing(firm.org.id, mine.id, 1_000, 10);
    await owing(firm.org.id, hidden.id, 2_000, 10);
    const limited = await memberWith(t, firm.org.id, ['clients.view', 'billing.view'], {
      assignedClientsOnly: true,
    });
    await putOnTeam(t, firm.org.id, mine.id, limited.id);
    const seen = await t.client(limited.token).billing.receivables.aging.query({});
    expect(seen.rows.map((r) => r.name)).toEqual(['Visible Debtor']);
    expect(seen.totals?.outstanding).toBe(1_000);
    const other = await billingFirm(t, 'Elsewhere & Co');
    expect(await t.client(other.owner.token).billing.receivables.aging.query({})).toMatchObject({
      rows: [],
      total: 0,
      totals: null,
    });
  });
});
