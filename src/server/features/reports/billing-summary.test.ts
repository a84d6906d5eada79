import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientServices,
  clientTeam,
  disbursements,
  invoices,
  roles,
  systemLog,
  timesheetEntries,
} from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedDraft, seedInvoice, seedReceipt } from '../../test/billing';
import { putOnTeam, seedClient } from '../../test/fixtures';
import { codeOf } from '../../test/outcome';
import { lastAndThisMonth } from '../../test/report-period';
import { seedFirmWithRoles } from '../../test/seeded-firm';
import { voidInvoice } from '../billing';

// One firm's half year of billing, made through the ledger, and the billing summary read against
// it. Every expected figure is worked out by hand in the comments beside the seed.

let t: TTestApp;
let f: Awaited<ReturnType<typeof world>>;
const PERIOD = { from: '2026-04-01', to: '2026-09-30' };
const { prevMonthStart, monthStart } = lastAndThisMonth();

async function world() {
  const firm = await seedFirmWithRoles(t, 'Billing report firm');
  const o = firm.org.id;
  const api = t.client(firm.owner.token);
  const a = await seedClient(t, o, { name: 'Aarav Traders', code: 'C001' });
  const b = await seedClient(t, o, { name: 'Bela Foods', code: 'C002' });
  const c = await seedClient(t, o, { name: 'Chirag Silent', code: 'C003' });
  await t.db.insert(clientTeam).values([
    { orgId: o, clientId: a.id, memberId: firm.owner.id, responsibility: 'Partner in charge' },
    { orgId: o, clientId: b.id, memberId: firm.admin.id, responsibility: 'Partner in charge' },
  ]);
  const monthly = await api.services.create.mutate({ name: 'Bookkeeping', code: 'BK', frequency: 'monthly' });
  const yearly = await api.services.create.mutate({ name: 'Audit', code: 'AUD', frequency: 'yearly' });
  const project = await api.projects.create.mutate({ clientId: b.id, name: 'Bela audit 2026' });

  // A's time, approved at its rates: 120 min at 60.00/h (12,000) and 60 min at 30.00/h (3,000).
  const time = (memberId: string, clientId: string, minutes: number, rate: number, extra = {}) => ({
    orgId: o,
    memberId,
    clientId,
    date: '2026-05-02',
    minutes,
    billable: true,
    status: 'approved' as const,
    billRate: rate,
    ...extra,
  });
  const billedTime = await t.db
    .insert(timesheetEntries)
    .values([time(firm.owner.id, a.id, 120, 6000), time(firm.manager.id, a.id, 60, 3000)])
    .returning({ id: timesheetEntries.id });
  // WIP: B's 90 min at 30.00/h (4,500); time not approved, or not billable, is not WIP.
  await t.db
    .insert(timesheetEntries)
    .values([
      time(firm.manager.id, b.id, 90, 3000),
      time(firm.manager.id, b.id, 45, 3000, { status: 'submitted' }),
      time(firm.manager.id, b.id, 30, 3000, { billable: false }),
    ]);
  await t.db.insert(disbursements).values({
    orgId: o,
    clientId: a.id,
    spentOn: '2026-09-01',
    description: 'ROC filing fee',
    amount: 2500,
  });
  // Fixed fees: B's bookkeeping at 100.00 a month, billed from last month; last month's is on a
  // draft already, so this month's (10,000) is due. A's audit fee waits for its project: not due.
  const [bookkeeping] = await t.db
    .insert(clientServices)
    .values([
      {
        orgId: o,
        clientId: b.id,
        serviceId: monthly.id,
        startDate: '2025-01-01',
        fee: '100.00',
        billingMode: 'fixed',
        feeTrigger: 'manual',
        billFrom: prevMonthStart,
      },
      {
        orgId: o,
        clientId: a.id,
        serviceId: yearly.id,
        startDate: '2025-01-01',
        fee: '500.00',
        billingMode: 'fixed',
        feeTrigger: 'project_complete',
        billFrom: prevMonthStart,
      },
    ])
    .returning();
  if (!bookkeeping) throw new Error('engagement not made');
  await seedDraft(t, o, {
    clientId: b.id,
    lines: [
      {
        kind: 'fee',
        description: 'Bookkeeping, last month',
        rate: 10_000,
        engagementId: bookkeeping.id,
        periodStart: prevMonthStart,
        standardValue: 10_000,
      },
    ],
  });
  expect(monthStart > prevMonthStart).toBe(true);

  // Invoice 1, A, 10 May: time written down to 13,500 (standard 15,000) and advice at 5,000: 18,500.
  const inv1 = await seedInvoice(t, o, {
    clientId: a.id,
    issueDate: '2026-05-10',
    lines: [
      {
        kind: 'time',
        description: 'Bookkeeping, April',
        serviceId: monthly.id,
        rate: 13_500,
        standardValue: 15_000,
        timeEntryIds: billedTime.map((e) => e.id),
      },
      { description: 'Advice on a notice', rate: 5_000 },
    ],
  });
  // Invoice 2, B, 5 June: the audit fee at its standard, 20,000, on the project.
  const inv2 = await seedInvoice(t, o, {
    clientId: b.id,
    issueDate: '2026-06-05',
    lines: [
      {
        kind: 'fee',
        description: 'Audit fee',
        serviceId: yearly.id,
        projectId: project.id,
        rate: 20_000,
        standardValue: 20_000,
      },
    ],
  });
  // A credit note of 5,000 against it on 20 June: settles 5,000 of it.
  await seedInvoice(t, o, {
    clientId: b.id,
    kind: 'credit_note',
    creditForId: inv2.id,
    issueDate: '2026-06-20',
    lines: [{ description: 'Audit fee reduced', serviceId: yearly.id, rate: 5_000 }],
  });
  // Invoice 3, A, 5 October (after the period), due long after today: outstanding, not overdue.
  const inv3 = await seedInvoice(t, o, {
    clientId: a.id,
    issueDate: '2026-10-05',
    lines: [{ description: 'Advance tax advice', rate: 7_000 }],
  });
  await t.db.update(invoices).set({ dueDate: '2099-12-31' }).where(eq(invoices.id, inv3.id));
  // Voided in July, and a draft: neither billed nor owed.
  const doomed = await seedInvoice(t, o, {
    clientId: b.id,
    issueDate: '2026-07-01',
    lines: [{ description: 'Raised twice', rate: 3_000 }],
  });
  await t.db.transaction((tx) => voidInvoice(tx, { kind: 'system', orgId: o }, doomed.id, 'Raised twice'));
  await seedDraft(t, o, { clientId: b.id, lines: [{ description: 'Not yet', rate: 9_999 }] });
  // A pays 9,000 with 1,000 TDS on 15 June (10,000 settled); B pays 4,000 on 10 October.
  await seedReceipt(t, o, {
    clientId: a.id,
    receivedOn: '2026-06-15',
    amount: 9_000,
    tdsAmount: 1_000,
    allocate: [{ invoiceId: inv1.id, amount: 10_000 }],
  });
  await seedReceipt(t, o, {
    clientId: b.id,
    receivedOn: '2026-10-10',
    amount: 4_000,
    allocate: [{ invoiceId: inv2.id, amount: 4_000 }],
  });
  return { ...firm, api, a, b, c, monthly, yearly, project };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await world();
}, 120_000);
afterAll(() => t?.close());

describe('the billing summary', () => {
  it('adds up the period: billed, collected, owed today, work in progress, realization', async () => {
    const r = await f.api.reports.billingSummary.query({ ...PERIOD, by: 'client' });
    expect(r.totals).toEqual({
      // 18,500 + 20,000 − 5,000 (credit note); October's, the void and the drafts are not.
      billed: 33_500,
      // A's 10,000 settled on 15 June; the credit note is not money, B's payment is October's.
      collected: 10_000,
      // Invoice 1: 18,500 − 10,000; invoice 2: 20,000 − 5,000 − 4,000; invoice 3: 7,000.
      outstanding: 8_500 + 11_000 + 7_000,
      overdue: 8_500 + 11_000,
      wip: 4_500 + 10_000 + 2_500,
      wipTime: 4_500,
      wipFees: 10_000,
      wipDisbursements: 2_500,
      standard: 35_000,
      measured: 33_500,
      // 33,500 ÷ 35,000 = 95.7%.
      realization: 96,
    });
    expect(
      r.rows.map((x) => [x.name, x.billed, x.collected, x.outstanding, x.overdue, x.wip, x.realization]),
    ).toEqual([
      ['Aarav Traders', 18_500, 10_000, 15_500, 8_500, 2_500, 90],
      ['Bela Foods', 15_000, 0, 11_000, 11_000, 14_500, 100],
    ]);
    expect(r.total).toBe(2);
  });

  it('by month: every month of the period, billed and collected where they fell', async () => {
    const r = await f.api.reports.billingSummary.query({ ...PERIOD, by: 'month' });
    expect(r.rows.map((x) => [x.id, x.billed, x.collected, x.standard, x.measured])).toEqual([
      ['2026-04', 0, 0, 0, 0],
      ['2026-05', 18_500, 0, 15_000, 13_500],
      ['2026-06', 15_000, 10_000, 20_000, 20_000],
      ['2026-07', 0, 0, 0, 0],
      ['2026-08', 0, 0, 0, 0],
      ['2026-09', 0, 0, 0, 0],
    ]);
    expect(r.months).toHaveLength(6);
    expect(r.figures).toEqual(['billed', 'collected', 'standard', 'realization']);
  });

  it('by service, partner, member and project', async () => {
    const by = async (dimension: 'service' | 'partner' | 'member' | 'project') =>
      (await f.api.reports.billingSummary.query({ ...PERIOD, by: dimension })).rows.map((x) => ({
        name: x.name,
        billed: x.billed,
        wip: x.wip,
        standard: x.standard,
        measured: x.measured,
      }));
    // Lines by their service: the time line is Bookkeeping, the audit fee less its credit is Audit,
    // the advice line has none; WIP time and the disbursement have no service, the fee is Bookkeeping's.
    expect(await by('service')).toEqual([
      { name: 'Audit', billed: 15_000, wip: 0, standard: 20_000, measured: 20_000 },
      { name: 'Bookkeeping', billed: 13_500, wip: 10_000, standard: 15_000, measured: 13_500 },
      { name: '', billed: 5_000, wip: 7_000, standard: 0, measured: 0 },
    ]);
    const partners = await by('partner');
    expect(partners).toEqual([
      { name: 'Ada Admin', billed: 15_000, wip: 14_500, standard: 20_000, measured: 20_000 },
      { name: 'Olivia Owner', billed: 18_500, wip: 2_500, standard: 15_000, measured: 13_500 },
    ]);
    // The time line's 13,500 shared out by standard value: 12,000 → 10,800 and 3,000 → 2,700.
    expect(await by('member')).toEqual([
      { name: 'Manu Manager', billed: 0, wip: 4_500, standard: 3_000, measured: 2_700 },
      { name: 'Olivia Owner', billed: 0, wip: 0, standard: 12_000, measured: 10_800 },
    ]);
    expect(await by('project')).toEqual([
      { name: 'Bela audit 2026', billed: 20_000, wip: 0, standard: 20_000, measured: 20_000 },
      { name: '', billed: 13_500, wip: 17_000, standard: 15_000, measured: 13_500 },
    ]);
  });

  it('sorts on the server and pages', async () => {
    const r = await f.api.reports.billingSummary.query({
      ...PERIOD,
      by: 'client',
      sort: 'wip',
      direction: 'desc',
      pageSize: 1,
    });
    expect(r.rows.map((x) => x.name)).toEqual(['Bela Foods']);
    expect(r.total).toBe(2);
    // A sort the dimension has no figure for falls back to the name.
    const members = await f.api.reports.billingSummary.query({ ...PERIOD, by: 'member', sort: 'collected' });
    expect(members.rows.map((x) => x.name)).toEqual(['Manu Manager', 'Olivia Owner']);
  });

  it('refuses bad input with a 400', async () => {
    for (const input of [
      { from: '2026-09-30', to: '2026-04-01' },
      { from: '2020-01-01', to: '2026-01-01' },
      { ...PERIOD, by: 'galaxy' },
      { ...PERIOD, pageSize: 2 ** 31 },
      { from: '2026-04-01\u0000', to: '2026-09-30' },
    ]) {
      expect(await codeOf(f.api.reports.billingSummary.query(input as never))).toBe('BAD_REQUEST');
    }
  });

  it('exports every row as CSV and Excel, logged', async () => {
    const res = await fetch(
      `${t.url}/api/reports/billing/export.csv?from=${PERIOD.from}&to=${PERIOD.to}&by=client`,
      {
        headers: { authorization: `Bearer ${f.owner.token}` },
      },
    );
    expect(res.status).toBe(200);
    const csv = await res.text();
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'Client,Code,Billed,Collected,Outstanding,Overdue,WIP,WIP time,WIP fees,WIP disbursements,Standard value,Billed against standard,Realization %',
    );
    expect(lines[1]).toBe(
      'Aarav Traders,C001,185.00,100.00,155.00,85.00,25.00,0.00,0.00,25.00,150.00,135.00,90',
    );
    expect(lines).toHaveLength(3);
    const xlsx = await fetch(
      `${t.url}/api/reports/billing/export.xlsx?from=${PERIOD.from}&to=${PERIOD.to}&by=month`,
      {
        headers: { authorization: `Bearer ${f.owner.token}` },
      },
    );
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    const bad = await fetch(`${t.url}/api/reports/billing/export.csv?from=2026-09-30&to=2026-01-01`, {
      headers: { authorization: `Bearer ${f.owner.token}` },
    });
    expect(bad.status).toBe(400);
    const logged = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'report.export')));
    expect(logged.map((l) => l.summary)).toEqual(
      expect.arrayContaining([
        'Exported the billing summary (2 rows) to CSV',
        'Exported the billing summary (6 rows) to XLSX',
      ]),
    );
  });
});

describe('who sees it', () => {
  it('needs billing.view beside reports.view, and a limited member sees their clients only', async () => {
    const staff = t.client(f.staff.token);
    await putOnTeam(t, f.org.id, f.a.id, f.staff.id);
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'reports.view'] })
      .where(eq(roles.id, f.roles.staff.id));
    expect(await codeOf(staff.reports.billingSummary.query(PERIOD))).toBe('FORBIDDEN');
    const noBilling = await fetch(
      `${t.url}/api/reports/billing/export.csv?from=${PERIOD.from}&to=${PERIOD.to}`,
      {
        headers: { authorization: `Bearer ${f.staff.token}` },
      },
    );
    expect(noBilling.status).toBe(403);
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'reports.view', 'billing.view'] })
      .where(eq(roles.id, f.roles.staff.id));
    const r = await staff.reports.billingSummary.query({ ...PERIOD, by: 'client' });
    expect(r.rows.map((x) => x.name)).toEqual(['Aarav Traders']);
    expect(r.totals).toMatchObject({ billed: 18_500, collected: 10_000, outstanding: 15_500, wip: 2_500 });
    const members = await staff.reports.billingSummary.query({ ...PERIOD, by: 'member' });
    expect(members.rows.map((x) => [x.name, x.wip])).toEqual([
      ['Manu Manager', 0],
      ['Olivia Owner', 0],
    ]);
  });

  it('answers nothing of another firm', async () => {
    const other = await t.seedFirm('Other billing firm');
    const r = await t.client(other.owner.token).reports.billingSummary.query({ ...PERIOD, by: 'client' });
    expect(r.rows).toEqual([]);
    expect(r.totals).toMatchObject({ billed: 0, outstanding: 0, wip: 0, realization: null });
  });
});
