import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, invoiceDeliveries, orgs, roles, systemLog, timesheetEntries } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { putOnTeam, seedClient } from '../../../test/fixtures';
import { codeOf } from '../../../test/outcome';
import { createDraft } from '..';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TFirm = Awaited<ReturnType<TTestApp['seedFirm']>>;

const line = (description: string, rate: number, extra: Record<string, unknown> = {}) => ({
  description,
  serviceId: null,
  taxCode: '998231',
  quantityMilli: 1000,
  rate,
  discount: 0,
  taxRateBp: 1800,
  ...extra,
});

/** An Indian firm on GST in Maharashtra (27), fiscal year from April, totals rounded. */
async function gstFirm(name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(orgs)
    .set({ currency: 'INR', country: 'IN', timeZone: 'Asia/Kolkata', fiscalYearStartMonth: 4 })
    .where(eq(orgs.id, firm.org.id));
  const api = t.client(firm.owner.token);
  await api.billing.settings.update.mutate({
    taxRegime: 'gst',
    gstState: '27',
    defaultTaxRateBp: 1800,
    roundTotals: true,
    invoicePrefix: 'INV',
    creditNotePrefix: 'CN',
    seqDigits: 4,
    dueDays: 15,
    terms: 'Payable within 15 days.',
    bankDetails: 'HDFC Bank\nA/c 50200012345678',
    upiVpa: 'firm@hdfcbank',
    upiPayee: name,
    recurringMode: 'draft',
    remindersEnabled: false,
    remindBeforeDays: null,
    remindOnDue: true,
    remindEveryDays: null,
  });
  return { firm, api };
}

async function draftWith(
  api: ReturnType<TTestApp['client']>,
  clientId: string,
  lines: ReturnType<typeof line>[],
) {
  const draft = await api.billing.invoices.create.mutate({ clientId });
  await api.billing.invoices.update.mutate({ invoiceId: draft.id, lines, notes: '', terms: '' });
  return draft;
}

describe('billing settings', () => {
  it('start from the defaults, save with a diff in the log, and refuse GST without a state', async () => {
    const firm = await t.seedFirm('Settings & Co');
    const api = t.client(firm.owner.token);
    const first = await api.billing.settings.get.query();
    expect(first.settings).toMatchObject({
      taxRegime: 'none',
      invoicePrefix: 'INV',
      seqDigits: 4,
      dueDays: 15,
    });
    expect(first.lastSeq).toEqual({});
    const saved = { ...first.settings, invoicePrefix: 'SI', dueDays: 30, bankDetails: 'Bank of Test' };
    expect(await api.billing.settings.update.mutate(saved)).toEqual({ changed: true });
    expect(await api.billing.settings.update.mutate(saved)).toEqual({ changed: false });
    expect((await api.billing.settings.get.query()).settings).toMatchObject({
      invoicePrefix: 'SI',
      dueDays: 30,
    });
    const [log] = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'billing.settings.update')));
    expect(log?.changes).toMatchObject({
      invoicePrefix: { from: 'INV', to: 'SI' },
      dueDays: { from: 15, to: 30 },
    });
    await expect(
      api.billing.settings.update.mutate({ ...saved, taxRegime: 'gst', gstState: null }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/state code/) });
    await expect(api.billing.settings.update.mutate({ ...saved, terms: 'a\u0000b' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await expect(api.billing.settings.update.mutate({ ...saved, upiVpa: 'not a vpa' })).rejects.toMatchObject(
      {
        data: { code: 'BAD_REQUEST' },
      },
    );
    // Staff (no settings.billing) neither read nor change them.
    expect(await codeOf(t.client(firm.staff.token).billing.settings.get.query())).toBe('FORBIDDEN');
  });
});

describe('an invoice from draft to credit note', () => {
  let firm: TFirm;
  let api: ReturnType<TTestApp['client']>;
  let clientId: string;
  beforeAll(async () => {
    ({ firm, api } = await gstFirm('Ledger Street'));
    clientId = (await seedClient(t, firm.org.id, { name: 'Mehta Traders' })).id;
  });

  it('edits a draft, issues it with the next number, and refuses to edit it after', async () => {
    const draft = await api.billing.invoices.create.mutate({ clientId });
    const empty = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(empty.invoice).toMatchObject({
      status: 'draft',
      number: null,
      total: 0,
      terms: 'Payable within 15 days.',
    });
    await expect(api.billing.invoices.issue.mutate({ invoiceId: draft.id })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/at least one line/),
    });

    const saved = await api.billing.invoices.update.mutate({
      invoiceId: draft.id,
      lines: [
        line('GST return, October', 250_000),
        line('Advisory call', 100_033, { quantityMilli: 1500, discount: 50 }),
      ],
      dueDate: null,
      notes: 'Thank you',
      terms: 'Net 15',
    });
    // 2,500.00 + (1.5 × 1,000.33 − 0.50 = 1,500.00); 18% as CGST + SGST; rounded to the rupee.
    const detail = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(detail.invoice).toMatchObject({ subtotal: 400_000, taxTotal: 72_000, total: 472_000 });
    expect(saved.total).toBe(472_000);
    expect(detail.taxes.map((x) => [x.label, x.amount])).toEqual([
      ['CGST 9%', 36_000],
      ['SGST 9%', 36_000],
    ]);
    // Reordered and one removed: the remaining line keeps its id.
    const kept = detail.lines[1];
    await api.billing.invoices.update.mutate({
      invoiceId: draft.id,
      lines: [{ ...line('Advisory call', 100_033, { quantityMilli: 1500, discount: 50 }), id: kept?.id }],
      notes: '',
      terms: 'Net 15',
    });
    const edited = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(edited.lines.map((l) => l.id)).toEqual([kept?.id]);

    const issued = await api.billing.invoices.issue.mutate({ invoiceId: draft.id, issueDate: '2026-11-20' });
    expect(issued.number).toBe('INV/2026-27/0001');
    const after = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(after.invoice).toMatchObject({
      status: 'issued',
      dueDate: '2026-12-05',
      billTo: { name: 'Mehta Traders' },
    });
    expect(after.history.map((h) => h.action)).toEqual([
      'invoice.issue',
      'invoice.update',
      'invoice.update',
      'invoice.create',
    ]);

    await expect(
      api.billing.invoices.update.mutate({
        invoiceId: draft.id,
        lines: [line('Changed', 1)],
        notes: '',
        terms: '',
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/credit note/) });
    await expect(api.billing.invoices.deleteDraft.mutate({ invoiceId: draft.id })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });

    const second = await draftWith(api, clientId, [line('Audit', 1_000_000)]);
    expect(
      (await api.billing.invoices.issue.mutate({ invoiceId: second.id, issueDate: '2026-11-21' })).number,
    ).toBe('INV/2026-27/0002');
    // A new fiscal year starts again at 1.
    const next = await draftWith(api, clientId, [line('Audit', 1_000_000)]);
    expect(
      (await api.billing.invoices.issue.mutate({ invoiceId: next.id, issueDate: '2027-04-01' })).number,
    ).toBe('INV/2027-28/0001');
  });

  it('raises credit notes up to what is left, and voids what has nothing allocated', async () => {
    const inv = await draftWith(api, clientId, [line('Retainer', 1_000_000), line('Filing', 200_000)]);
    const issued = await api.billing.invoices.issue.mutate({ invoiceId: inv.id, issueDate: '2026-11-25' });
    const total = (await api.billing.invoices.get.query({ invoiceId: inv.id })).invoice.total;
    expect(total).toBe(1_416_000);

    const part = await api.billing.invoices.creditNote.mutate({
      invoiceId: inv.id,
      reason: 'Filing not needed',
      lines: [line('Filing', 200_000)],
    });
    expect(part).toMatchObject({ number: 'CN/2026-27/0001', total: 236_000 });
    const afterPart = await api.billing.invoices.get.query({ invoiceId: inv.id });
    expect(afterPart.invoice).toMatchObject({
      amountPaid: 236_000,
      balance: 1_180_000,
      status: 'partly_paid',
    });
    expect(afterPart.creditNotes.map((c) => c.number)).toEqual(['CN/2026-27/0001']);
    expect(afterPart.allocations[0]).toMatchObject({ amount: 236_000, otherNumber: 'CN/2026-27/0001' });

    // The whole invoice again would credit more than is left.
    await expect(
      api.billing.invoices.creditNote.mutate({ invoiceId: inv.id, reason: 'All of it', full: true }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/left to credit/),
    });
    await expect(
      api.billing.invoices.creditNote.mutate({ invoiceId: inv.id, reason: 'Nothing', lines: [] }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });

    // Money is allocated (the credit note): void is refused with the ledger's words.
    await expect(
      api.billing.invoices.void.mutate({ invoiceId: inv.id, reason: 'Raised twice' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/reverse them before voiding/),
    });
    // Voiding the credit note gives the invoice its balance back; then the invoice voids.
    await api.billing.invoices.void.mutate({ invoiceId: part.id, reason: 'Issued in error' });
    expect((await api.billing.invoices.get.query({ invoiceId: inv.id })).invoice).toMatchObject({
      balance: total,
      status: 'issued',
    });
    const voided = await api.billing.invoices.void.mutate({ invoiceId: inv.id, reason: 'Raised twice' });
    expect(voided.number).toBe(issued.number);
    const shown = await api.billing.invoices.get.query({ invoiceId: inv.id });
    expect(shown.invoice).toMatchObject({ status: 'void', voidReason: 'Raised twice', balance: 0 });
    await expect(
      api.billing.invoices.creditNote.mutate({ invoiceId: inv.id, reason: 'Late', full: true }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/void/) });

    // A full credit of a fresh invoice settles it exactly.
    const whole = await draftWith(api, clientId, [line('Retainer', 999_999, { quantityMilli: 3333 })]);
    await api.billing.invoices.issue.mutate({ invoiceId: whole.id });
    const full = await api.billing.invoices.creditNote.mutate({
      invoiceId: whole.id,
      reason: 'Cancelled',
      full: true,
    });
    const settled = await api.billing.invoices.get.query({ invoiceId: whole.id });
    expect(full.total).toBe(settled.invoice.total);
    expect(settled.invoice).toMatchObject({ status: 'paid', balance: 0 });
    const note = await api.billing.invoices.get.query({ invoiceId: full.id });
    expect(note.creditFor?.id).toBe(whole.id);
    expect(note.invoice).toMatchObject({ kind: 'credit_note', notes: 'Cancelled' });
  });

  it('shows an issued invoice taxed as it was issued, whatever the firm’s state is set to since', async () => {
    const inv = await draftWith(api, clientId, [line('Retainer', 100_000)]);
    await api.billing.invoices.issue.mutate({ invoiceId: inv.id });
    const settings = (await api.billing.settings.get.query()).settings;
    await api.billing.settings.update.mutate({ ...settings, gstState: '29' });
    try {
      const shown = await api.billing.invoices.get.query({ invoiceId: inv.id });
      expect(shown.taxes.map((x) => x.label)).toEqual(['CGST 9%', 'SGST 9%']);
      // A draft for a client in Maharashtra (27) is now supplied outside the firm's state.
      const draft = await api.billing.invoices.create.mutate({ clientId });
      await api.billing.invoices.update.mutate({
        invoiceId: draft.id,
        lines: [line('Retainer', 100_000)],
        placeOfSupply: '27',
        notes: '',
        terms: '',
      });
      const now = await api.billing.invoices.get.query({ invoiceId: draft.id });
      expect(now.taxes.map((x) => x.label)).toEqual(['IGST 18%']);
    } finally {
      await api.billing.settings.update.mutate(settings);
    }
  });

  it('shows what billed time a line carries, and its write-down against standard value', async () => {
    const entries = await t.db
      .insert(timesheetEntries)
      .values(
        [90, 360].map((minutes) => ({
          orgId: firm.org.id,
          memberId: firm.owner.id,
          clientId,
          date: '2026-11-02',
          minutes,
          billable: true,
          status: 'approved' as const,
          billRate: 200_000,
        })),
      )
      .returning({ id: timesheetEntries.id });
    // 7:30 h at ₹2,000 is worth ₹15,000; billed at ₹12,000.
    const draft = await t.db.transaction((tx) =>
      createDraft(tx, firm.org.id, {
        clientId,
        createdBy: firm.owner.id,
        lines: [
          {
            ...line('October returns', 1_200_000),
            kind: 'time',
            standardValue: 1_500_000,
            timeEntryIds: entries.map((e) => e.id),
          },
        ],
      }),
    );
    const detail = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(detail.lines[0]).toMatchObject({
      kind: 'time',
      amount: 1_200_000,
      standardValue: 1_500_000,
      time: { entries: 2, minutes: 450 },
    });
    // Edited on the draft, the line keeps its time.
    const [first] = detail.lines;
    await api.billing.invoices.update.mutate({
      invoiceId: draft.id,
      lines: [{ ...line('October returns, reviewed', 1_300_000), id: first?.id }],
      notes: '',
      terms: '',
    });
    const edited = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(edited.lines[0]).toMatchObject({
      kind: 'time',
      amount: 1_300_000,
      time: { entries: 2, minutes: 450 },
    });
    // Deleted, the draft gives its time back to work in progress.
    await api.billing.invoices.deleteDraft.mutate({ invoiceId: draft.id });
    const back = await t.db
      .select({ line: timesheetEntries.invoiceLineId })
      .from(timesheetEntries)
      .where(eq(timesheetEntries.clientId, clientId));
    expect(back.every((b) => b.line === null)).toBe(true);
  });

  it('deletes a draft, logged', async () => {
    const draft = await draftWith(api, clientId, [line('Scratch', 100)]);
    await api.billing.invoices.deleteDraft.mutate({ invoiceId: draft.id });
    expect(await codeOf(api.billing.invoices.get.query({ invoiceId: draft.id }))).toBe('NOT_FOUND');
    const rows = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, draft.id)));
    expect(rows.map((r) => r.action).sort()).toEqual([
      'invoice.create',
      'invoice.delete_draft',
      'invoice.update',
    ]);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const draft = await api.billing.invoices.create.mutate({ clientId });
    const bad = (lines: unknown[], extra: Record<string, unknown> = {}) =>
      codeOf(
        api.billing.invoices.update.mutate({
          invoiceId: draft.id,
          lines: lines as never,
          notes: '',
          terms: '',
          ...extra,
        }),
      );
    expect(await bad([line('x', -1)])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 2 ** 53)])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 1_000_000_000, { quantityMilli: 1_000_000_000 })])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 1.5)])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 100, { discount: 101 })])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 100, { taxRateBp: 10_001 })])).toBe('BAD_REQUEST');
    expect(await bad([line('nul \u0000 byte', 100)])).toBe('BAD_REQUEST');
    expect(await bad([line('', 100)])).toBe('BAD_REQUEST');
    expect(await bad([line('x', 100)], { dueDate: '2200-01-01' })).toBe('BAD_REQUEST');
    expect(await bad([line('x', 100)], { dueDate: '2026-02-30' })).toBe('BAD_REQUEST');
    expect(await bad([line('x', 100)], { placeOfSupply: 'Maharashtra' })).toBe('BAD_REQUEST');
    expect(await bad(Array.from({ length: 201 }, () => line('x', 1)))).toBe('BAD_REQUEST');
    expect(await bad([{ ...line('x', 1), id: '00000000-0000-4000-8000-000000000000' }])).toBe('NOT_FOUND');
    expect(await codeOf(api.billing.invoices.get.query({ invoiceId: 'not-a-uuid' }))).toBe('BAD_REQUEST');
    expect(
      await codeOf(api.billing.invoices.issue.mutate({ invoiceId: draft.id, issueDate: '1999-12-31' })),
    ).toBe('BAD_REQUEST');
    const still = await api.billing.invoices.get.query({ invoiceId: draft.id });
    expect(still.lines).toEqual([]);
    expect(still.invoice.status).toBe('draft');
  });
});

describe('the invoices list', () => {
  it('filters by status (Overdue with the firm’s today), client, kind, dates and search; sorts; pages', async () => {
    const { firm, api } = await gstFirm('Listing & Co');
    const a = await seedClient(t, firm.org.id, { name: 'Aarav Exports' });
    const b = await seedClient(t, firm.org.id, { name: 'Bela Foods' });
    const old = await draftWith(api, a.id, [line('Old work', 100_000)]);
    await api.billing.invoices.issue.mutate({ invoiceId: old.id, issueDate: '2025-05-01' }); // due 2025-05-16
    const recent = await draftWith(api, b.id, [line('Recent work', 300_000)]);
    await api.billing.invoices.issue.mutate({ invoiceId: recent.id }); // due in 15 days
    await draftWith(api, b.id, [line('Still a draft', 50_000)]);
    const note = await api.billing.invoices.creditNote.mutate({
      invoiceId: recent.id,
      reason: 'Discount',
      lines: [line('Discount', 10_000)],
    });

    const list = (input: Record<string, unknown> = {}) =>
      api.billing.invoices.list.query({ pageSize: 50, ...input });
    const all = await list();
    expect(all.total).toBe(4);
    // Newest first; the draft (no issue date yet) on top.
    expect(all.rows[0]?.status).toBe('draft');
    const byId = new Map(all.rows.map((r) => [r.id, r]));
    expect(byId.get(old.id)?.displayStatus).toBe('overdue');
    expect(byId.get(recent.id)?.displayStatus).toBe('partly_paid');

    expect((await list({ status: 'overdue' })).rows.map((r) => r.id)).toEqual([old.id]);
    expect((await list({ status: 'issued' })).rows.map((r) => r.id)).toEqual([note.id]);
    expect((await list({ status: 'outstanding' })).rows.map((r) => r.id).sort()).toEqual(
      [old.id, recent.id].sort(),
    );
    expect((await list({ status: 'draft' })).total).toBe(1);
    expect((await list({ kind: 'credit_note' })).rows.map((r) => r.id)).toEqual([note.id]);
    expect((await list({ clientId: a.id })).rows.map((r) => r.id)).toEqual([old.id]);
    expect((await list({ from: '2025-01-01', to: '2025-12-31' })).rows.map((r) => r.id)).toEqual([old.id]);
    expect((await list({ search: 'bela' })).total).toBe(3);
    expect((await list({ search: 'CN/' })).rows.map((r) => r.id)).toEqual([note.id]);
    expect((await list({ search: '%' })).total).toBe(0);
    expect((await list({ sort: 'total', direction: 'desc' })).rows[0]?.id).toBe(recent.id);
    expect((await list({ sort: 'client', direction: 'asc' })).rows[0]?.clientName).toBe('Aarav Exports');
    expect(
      (await list({ sort: 'number', direction: 'asc', kind: 'invoice', status: 'outstanding' })).rows.map(
        (r) => r.number,
      ),
    ).toEqual(['INV/2025-26/0001', 'INV/2026-27/0001']);
    const paged = await list({ pageSize: 1, page: 2 });
    expect(paged.rows).toHaveLength(1);
    expect(paged.total).toBe(4);
    expect(await codeOf(list({ from: '2026-01-02', to: '2026-01-01' }))).toBe('BAD_REQUEST');
    expect(await codeOf(list({ status: 'late' }))).toBe('BAD_REQUEST');

    // The client's billing: owed and overdue.
    const summary = await api.billing.invoices.clientBilling.query({ clientId: a.id });
    expect(summary).toMatchObject({ outstanding: 118_000, overdue: 118_000, overdueCount: 1, openCount: 1 });

    // CSV export of the same filter.
    const res = await fetch(`${t.url}/api/billing/invoices/export.csv?status=overdue`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(200);
    const csv = await res.text();
    expect(csv).toContain('Number,Kind,Status');
    expect(csv).toContain('INV/2025-26/0001,Invoice,Overdue');
    expect(csv).toContain('1180.00');
    expect(csv).not.toContain('Bela Foods');
    const xlsx = await fetch(`${t.url}/api/billing/invoices/export.xlsx`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(xlsx.status).toBe(200);
    expect(new Uint8Array(await xlsx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const refused = await fetch(`${t.url}/api/billing/invoices/export.csv?status=late`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(refused.status).toBe(400);
  });

  it('shows a member limited to assigned clients only theirs', async () => {
    const { firm, api } = await gstFirm('Assigned & Co');
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'billing.view', 'billing.manage'], assignedClientsOnly: true })
      .where(eq(roles.id, firm.roles.staff.id));
    const mine = await seedClient(t, firm.org.id, { name: 'Mine Ltd' });
    const theirs = await seedClient(t, firm.org.id, { name: 'Theirs Ltd' });
    await putOnTeam(t, firm.org.id, mine.id, firm.staff.id);
    const visible = await draftWith(api, mine.id, [line('Mine', 100)]);
    const hidden = await draftWith(api, theirs.id, [line('Theirs', 100)]);
    const staff = t.client(firm.staff.token);
    const list = await staff.billing.invoices.list.query({});
    expect(list.rows.map((r) => r.id)).toEqual([visible.id]);
    expect((await staff.billing.invoices.clientOptions.query({})).map((c) => c.id)).toEqual([mine.id]);
    expect(await codeOf(staff.billing.invoices.get.query({ invoiceId: hidden.id }))).toBe('NOT_FOUND');
    expect(await codeOf(staff.billing.invoices.issue.mutate({ invoiceId: hidden.id }))).toBe('NOT_FOUND');
    expect(await codeOf(staff.billing.invoices.create.mutate({ clientId: theirs.id }))).toBe('NOT_FOUND');
    expect(await codeOf(staff.billing.invoices.clientBilling.query({ clientId: theirs.id }))).toBe(
      'NOT_FOUND',
    );
    const csv = await (
      await fetch(`${t.url}/api/billing/invoices/export.csv`, {
        headers: { authorization: `Bearer ${firm.staff.token}` },
      })
    ).text();
    expect(csv).toContain('Mine Ltd');
    expect(csv).not.toContain('Theirs Ltd');
  });
});

describe('another firm', () => {
  it('answers NOT_FOUND for every invoice and client of another firm, and changes nothing', async () => {
    const a = await gstFirm('Firm A');
    const b = await gstFirm('Firm B');
    const bClient = await seedClient(t, b.firm.org.id, { name: 'B client' });
    const bDraft = await draftWith(b.api, bClient.id, [line('B work', 100_000)]);
    const bIssued = await draftWith(b.api, bClient.id, [line('B issued', 100_000)]);
    await b.api.billing.invoices.issue.mutate({ invoiceId: bIssued.id });
    const ref = { invoiceId: bDraft.id };
    const calls = [
      a.api.billing.invoices.get.query(ref),
      a.api.billing.invoices.update.mutate({ ...ref, lines: [line('x', 1)], notes: '', terms: '' }),
      a.api.billing.invoices.issue.mutate(ref),
      a.api.billing.invoices.issueAndSend.mutate(ref),
      a.api.billing.invoices.deleteDraft.mutate(ref),
      a.api.billing.invoices.void.mutate({ invoiceId: bIssued.id, reason: 'x' }),
      a.api.billing.invoices.creditNote.mutate({ invoiceId: bIssued.id, reason: 'x', full: true }),
      a.api.billing.invoices.send.mutate({ invoiceId: bIssued.id, to: ['x@example.test'] }),
      a.api.billing.invoices.create.mutate({ clientId: bClient.id }),
      a.api.billing.invoices.clientBilling.query({ clientId: bClient.id }),
      a.api.billing.invoices.setClientBilling.mutate({
        clientId: bClient.id,
        emails: [],
        remindersPaused: true,
      }),
    ];
    expect(await Promise.all(calls.map(codeOf))).toEqual(calls.map(() => 'NOT_FOUND'));
    expect((await a.api.billing.invoices.list.query({ clientId: bClient.id })).rows).toEqual([]);
    expect(await b.api.billing.invoices.get.query(ref)).toMatchObject({ invoice: { status: 'draft' } });
    const pdf = await fetch(`${t.url}/api/billing/invoices/${bIssued.id}/pdf`, {
      headers: { authorization: `Bearer ${a.firm.owner.token}` },
    });
    expect(pdf.status).toBe(404);
  });
});

describe('a client’s billing contacts', () => {
  it('are saved with a diff in the log, and decide who an invoice is mailed to', async () => {
    const { firm, api } = await gstFirm('Contacts & Co');
    const client = await seedClient(t, firm.org.id, { name: 'Kapoor Sons' });
    const issued = await draftWith(api, client.id, [line('Work', 100_000)]);
    await api.billing.invoices.issue.mutate({ invoiceId: issued.id });
    // Neither contacts nor the client's email: nobody to send it to.
    await expect(api.billing.invoices.send.mutate({ invoiceId: issued.id })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/Nobody to send it to/),
    });
    await t.db.update(clients).set({ email: 'office@kapoor.test' }).where(eq(clients.id, client.id));
    expect((await api.billing.invoices.get.query({ invoiceId: issued.id })).recipients).toEqual([
      'office@kapoor.test',
    ]);
    await api.billing.invoices.setClientBilling.mutate({
      clientId: client.id,
      emails: ['Accounts@Kapoor.test', 'accounts@kapoor.test', 'cfo@kapoor.test'],
      remindersPaused: true,
    });
    const saved = await api.billing.invoices.clientBilling.query({ clientId: client.id });
    expect(saved).toMatchObject({
      emails: ['accounts@kapoor.test', 'cfo@kapoor.test'],
      remindersPaused: true,
    });
    expect(
      await codeOf(
        api.billing.invoices.setClientBilling.mutate({
          clientId: client.id,
          emails: ['nope'],
          remindersPaused: false,
        }),
      ),
    ).toBe('BAD_REQUEST');
    const queued = await api.billing.invoices.send.mutate({ invoiceId: issued.id });
    expect(queued.to).toEqual(['accounts@kapoor.test', 'cfo@kapoor.test']);
    const rows = await t.db
      .select()
      .from(invoiceDeliveries)
      .where(eq(invoiceDeliveries.invoiceId, issued.id));
    expect(rows.map((r) => [r.email, r.status])).toEqual([
      ['accounts@kapoor.test', 'queued'],
      ['cfo@kapoor.test', 'queued'],
    ]);
    const log = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.action, 'client.billing.update')));
    expect(log[0]?.changes).toMatchObject({ remindersPaused: { from: false, to: true } });
    // A draft is not sent; issue-and-send does both or neither.
    const draft = await draftWith(api, client.id, [line('More', 100)]);
    await expect(api.billing.invoices.send.mutate({ invoiceId: draft.id })).rejects.toMatchObject({
      message: expect.stringMatching(/Issue the invoice/),
    });
    const both = await api.billing.invoices.issueAndSend.mutate({
      invoiceId: draft.id,
      to: ['boss@kapoor.test'],
    });
    expect(both).toMatchObject({ number: expect.stringMatching(/^INV\//), to: ['boss@kapoor.test'] });
  });
});
