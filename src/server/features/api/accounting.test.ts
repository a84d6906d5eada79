import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEDGERS } from '../../../domain/accounting-export';
import { invoices, orgs } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const line = {
  description: 'Audit',
  serviceId: null,
  taxCode: '',
  quantityMilli: 1000,
  rate: 150_000,
  discount: 0,
  taxRateBp: 0,
};

describe('accounting export', () => {
  it("writes the period's invoices and payments as balanced Tally vouchers and a CSV journal", async () => {
    const firm = await t.seedFirm('Books & Co');
    const api = t.client(firm.owner.token);
    const client = await seedClient(t, firm.org.id, { name: 'Rao & Sons', code: 'RS-1' });
    const draft = await api.billing.invoices.create.mutate({ clientId: client.id });
    await api.billing.invoices.update.mutate({ invoiceId: draft.id, lines: [line], notes: '', terms: '' });
    await api.billing.invoices.issue.mutate({ invoiceId: draft.id, issueDate: '2026-04-05' });
    const [issued] = await t.db.select().from(invoices).where(eq(invoices.id, draft.id));
    if (!issued?.number) throw new Error('not issued');
    await api.billing.payments.record.mutate({
      clientId: client.id,
      receivedOn: '2026-04-20',
      method: 'upi',
      reference: 'UTR 77',
      amount: issued.total,
      allocations: [{ invoiceId: draft.id, amount: issued.total }],
    });
    const get = (query: string, token = firm.owner.token) =>
      fetch(`${t.url}/api/billing/export/accounting?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });

    const csv = await get('from=2026-04-01&to=2026-04-30&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('accounting-2026-04-01-to-2026-04-30.csv');
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe('voucher_type,date,voucher_number,party_code,party,ledger,debit,credit,reference');
    expect(rows.slice(1, 3)).toEqual([
      `Sales,2026-04-05,${issued.number},RS-1,Rao & Sons,Rao & Sons,1500.00,,`,
      `Sales,2026-04-05,${issued.number},RS-1,Rao & Sons,Professional Fees,,1500.00,`,
    ]);
    expect(rows.slice(3).map((r) => r.split(',').slice(0, 2).join(','))).toEqual([
      'Receipt,2026-04-20',
      'Receipt,2026-04-20',
    ]);

    const tally = await get('from=2026-04-01&to=2026-04-30&format=tally');
    expect(tally.headers.get('content-type')).toContain('application/xml');
    const xml = await tally.text();
    expect(xml.match(/<VOUCHER /g)).toHaveLength(2);
    expect(xml).toContain('<VOUCHER VCHTYPE="Receipt" ACTION="Create">');
    expect(xml).toContain('<REFERENCE>UTR 77</REFERENCE>');
    // Outside the period: nothing.
    expect((await (await get('from=2026-05-01&to=2026-05-31')).text()).trim().split('\r\n')).toHaveLength(1);
    expect((await get('from=2026-05-31&to=2026-05-01')).status).toBe(400);
    expect((await get('from=2026-04-01&to=2026-04-30', firm.staff.token)).status).toBe(403);
    // The screen's button: a signed link the browser opens itself, for this route only.
    const { url } = await api.links.issue.mutate({
      path: '/api/billing/export/accounting?from=2026-04-01&to=2026-04-30&format=tally',
    });
    const linked = await fetch(`${t.url}${url}`);
    expect(linked.status).toBe(200);
    expect(await linked.text()).toContain('<ENVELOPE>');
  });

  it('posts GST to CGST and SGST within the firm’s state and to IGST outside it', async () => {
    const firm = await t.seedFirm('Ledger & Co');
    await t.db
      .update(orgs)
      .set({ currency: 'INR', country: 'IN', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
      .where(eq(orgs.id, firm.org.id));
    const api = t.client(firm.owner.token);
    const settings = (await api.billing.settings.get.query()).settings;
    await api.billing.settings.update.mutate({
      ...settings,
      taxRegime: 'gst',
      gstState: '27',
      defaultTaxRateBp: 1800,
      roundTotals: false,
    });
    const client = await seedClient(t, firm.org.id, { name: 'Shah Textiles', code: 'ST-1' });
    const issue = async (placeOfSupply: string, issueDate: string) => {
      const draft = await api.billing.invoices.create.mutate({ clientId: client.id });
      await api.billing.invoices.update.mutate({
        invoiceId: draft.id,
        lines: [
          { ...line, taxCode: '998231', taxRateBp: 1800 },
          { ...line, description: 'Filing', rate: 50_001, taxCode: '998231', taxRateBp: 1800 },
        ],
        placeOfSupply,
        notes: '',
        terms: '',
      });
      await api.billing.invoices.issue.mutate({ invoiceId: draft.id, issueDate });
      const [row] = await t.db.select().from(invoices).where(eq(invoices.id, draft.id));
      if (!row?.number) throw new Error('not issued');
      return row;
    };
    const within = await issue('27', '2026-04-05');
    const outside = await issue('29', '2026-04-06');
    const csv = await fetch(`${t.url}/api/billing/export/accounting?from=2026-04-01&to=2026-04-30`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    const rows = (await csv.text())
      .trim()
      .split('\r\n')
      .slice(1)
      .map((r) => r.split(','));
    const postings = (number: string) =>
      rows.filter((r) => r[2] === number).map((r) => [r[5], r[6] || `-${r[7]}`]);
    // 1,500.00 + 500.01 at 18%: each half of the tax is rounded per line, as the invoice charged it.
    expect(postings(within.number ?? '')).toEqual([
      ['Shah Textiles', (within.total / 100).toFixed(2)],
      ['Professional Fees', '-2000.01'],
      ['Output CGST', '-180.00'],
      ['Output SGST', '-180.00'],
    ]);
    expect(within.taxTotal).toBe(36_000);
    expect(postings(outside.number ?? '')).toEqual([
      ['Shah Textiles', (outside.total / 100).toFixed(2)],
      ['Professional Fees', '-2000.01'],
      ['Output IGST', `-${(outside.taxTotal / 100).toFixed(2)}`],
    ]);

    // The firm names its ledgers as its books do; a blank one stays the default.
    const ledgers = { ...DEFAULT_LEDGERS, income: 'Fees Received', igst: 'IGST Payable', cgst: ' ' };
    const saved = (await api.billing.settings.get.query()).settings;
    await api.billing.settings.update.mutate({ ...saved, ledgers });
    expect((await api.billing.settings.get.query()).settings.ledgers).toEqual({
      ...ledgers,
      cgst: 'Output CGST',
    });
    const again = await fetch(
      `${t.url}/api/billing/export/accounting?from=2026-04-01&to=2026-04-30&format=tally`,
      {
        headers: { authorization: `Bearer ${firm.owner.token}` },
      },
    );
    const xml = await again.text();
    expect(xml).toContain('<LEDGERNAME>Fees Received</LEDGERNAME>');
    expect(xml).toContain('<LEDGERNAME>IGST Payable</LEDGERNAME>');
    expect(xml).toContain('<LEDGERNAME>Output CGST</LEDGERNAME>');
    expect(xml).not.toContain('Professional Fees');
    // Names the books could not hold are refused, and change nothing.
    for (const bad of ['x'.repeat(101), 'Fees\u0000']) {
      const refused = await api.billing.settings.update
        .mutate({ ...saved, ledgers: { ...ledgers, bank: bad } })
        .then(
          () => 'saved',
          (e: { data?: { code?: string } }) => e.data?.code,
        );
      expect(refused).toBe('BAD_REQUEST');
    }
    expect((await api.billing.settings.get.query()).settings.ledgers.bank).toBe('Bank Account');
  });
});
