import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodContaining } from '../../../../domain/periods';
import {
  billingSettings,
  clientServices,
  invoiceLines,
  invoices,
  services,
  timesheetEntries,
} from '../../../db/schema';
import { rowsOf } from '../../../db/sql';
import { createTestApp, type TTestApp } from '../../../test/app';
import { logRows } from '../../../test/fixtures';
import { generateRecurringProjects } from '../../projects';
import { billRecurringFees, voidInvoice } from '..';
import { dueFeePeriods, type TFeePeriodRow } from './sql';
import { approvedTime, billingFirm, codeOf, invoiceCount, monthStart, periodProject } from './wip-fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type TApi = ReturnType<TTestApp['client']>;

async function fixedService(api: TApi, code: string, values: object = {}) {
  return api.services.create.mutate({
    name: `Service ${code}`,
    code,
    frequency: 'monthly',
    defaultFee: '1000',
    billingMode: 'fixed',
    ...values,
  });
}

async function feeLines(orgId: string) {
  return t.db
    .select({
      engagementId: invoiceLines.engagementId,
      periodStart: invoiceLines.periodStart,
      rate: invoiceLines.rate,
      invoiceId: invoiceLines.invoiceId,
    })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.orgId, orgId), eq(invoiceLines.kind, 'fee')))
    .orderBy(invoiceLines.periodStart);
}

describe('fee arrangements', () => {
  it('default from the service, are set on the engagement, and every change is in the log', async () => {
    const { api, client, orgId } = await billingFirm(t, 'Arrange & Co');
    const svc = await fixedService(api, 'GST', {
      feeTrigger: 'period_start',
      taxCode: '998231',
      taxRate: '12.5',
    });
    const hourlySvc = await api.services.create.mutate({
      name: 'Advice',
      code: 'ADV',
      frequency: 'one_time',
    });
    const [stored] = await t.db.select().from(services).where(eq(services.id, svc.id));
    expect(stored).toMatchObject({
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      taxCode: '998231',
      taxRateBp: 1250,
    });
    const [advice] = await t.db.select().from(services).where(eq(services.id, hourlySvc.id));
    expect(advice).toMatchObject({ billingMode: 'hourly', feeTrigger: 'manual', taxRateBp: null });

    // Left out, the arrangement is the service's; a fixed service with no fee given bills by the hour.
    const start = monthStart(1);
    const a = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: start,
      fee: '1500',
    });
    const b = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: start,
    });
    const list = await api.engagements.listForClient.query({ clientId: client.id });
    const byId = new Map(list.rows.map((r) => [r.id, r]));
    expect(byId.get(a.id)).toMatchObject({
      billingMode: 'fixed',
      feeTrigger: 'period_start',
      billFrom: null,
    });
    expect(byId.get(b.id)).toMatchObject({ billingMode: 'hourly' });

    await api.engagements.update.mutate({
      engagementId: a.id,
      startDate: start,
      fee: '1500',
      billingMode: 'fixed',
      feeTrigger: 'manual',
      billFrom: monthStart(2),
    });
    const log = await logRows(t, orgId, client.id);
    expect(log.at(-1)?.changes).toEqual({
      feeTrigger: { from: 'period_start', to: 'manual' },
      billFrom: { from: null, to: monthStart(2) },
    });
    // An edit that leaves the arrangement out keeps it.
    await api.engagements.update.mutate({ engagementId: a.id, startDate: start, fee: '1600' });
    const [kept] = await t.db.select().from(clientServices).where(eq(clientServices.id, a.id));
    expect(kept).toMatchObject({
      billingMode: 'fixed',
      feeTrigger: 'manual',
      billFrom: monthStart(2),
      fee: '1600.00',
    });

    expect(
      await codeOf(
        api.engagements.update.mutate({
          engagementId: a.id,
          startDate: start,
          fee: '',
          billingMode: 'fixed',
        }),
      ),
    ).toBe('BAD_REQUEST: A fixed fee per period needs the fee');
    expect(
      await codeOf(api.engagements.update.mutate({ engagementId: b.id, startDate: start, fee: null })),
    ).toBe('ok');
    expect(
      await codeOf(
        api.engagements.update.mutate({
          engagementId: a.id,
          startDate: start,
          fee: '1600',
          billFrom: monthStart(0),
        }),
      ),
    ).toBe('BAD_REQUEST: Billing cannot start before the engagement does');
    expect(
      await codeOf(
        api.services.update.mutate({
          serviceId: svc.id,
          name: 'GST',
          code: 'GST',
          frequency: 'monthly',
          taxRate: '101',
        }),
      ),
    ).toMatch(/^BAD_REQUEST: Give the rate as a percent from 0 to 100/);
  });
});

describe('fees due by trigger', () => {
  it('lists every period from bill-from (or the start) to today for "by hand", aligned on the fiscal year', async () => {
    const { api, client } = await billingFirm(t, 'Periods & Co');
    const monthly = await fixedService(api, 'M');
    const quarterly = await fixedService(api, 'Q', { frequency: 'quarterly' });
    const once = await fixedService(api, 'O', { frequency: 'one_time' });
    const from = monthStart(-2);
    const m = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: monthly.id,
      startDate: from,
      fee: '1000',
    });
    const late = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: monthly.id,
      startDate: from,
      fee: '1000',
      billFrom: monthStart(0),
    });
    const q = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: quarterly.id,
      startDate: from,
      fee: '3000',
    });
    const o = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: once.id,
      startDate: from,
      fee: '700',
    });
    await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: monthly.id,
      startDate: monthStart(1),
      fee: '1000',
    });

    const { fees } = await api.billing.wip.client.query({ clientId: client.id });
    const of = (id: string) => fees.filter((f) => f.engagementId === id).map((f) => f.periodStart);
    expect(of(m.id)).toEqual([monthStart(-2), monthStart(-1), monthStart(0)]);
    expect(of(late.id)).toEqual([monthStart(0)]);
    const quarters = [
      ...new Set([from, monthStart(0)].map((d) => periodContaining('quarterly', 4, d).start)),
    ];
    expect(of(q.id)).toEqual(quarters);
    expect(of(o.id)).toEqual([from]);
    expect(fees.find((f) => f.engagementId === o.id)).toMatchObject({
      fee: 70_000,
      description: 'Service O',
    });
    expect(fees.find((f) => f.engagementId === m.id)?.description).toBe(
      `Service M · ${periodContaining('monthly', 4, from).label}`,
    );
    expect(fees).toHaveLength(3 + 1 + quarters.length + 1);
  });

  it('"when the project completes": due once the period’s project is completed, billed by itself once', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Complete & Co');
    const svc = await fixedService(api, 'AUD', { feeTrigger: 'project_complete', taxRate: '18' });
    const start = monthStart(0);
    const e = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: start,
      fee: '2500',
    });
    const project = await periodProject(t, orgId, {
      clientId: client.id,
      serviceId: svc.id,
      engagementId: e.id,
      periodStart: start,
      name: 'Audit · this month',
    });
    const covered = await approvedTime(t, orgId, {
      memberId: firm.owner.id,
      clientId: client.id,
      date: start,
      minutes: 180,
      billRate: 100_000,
      projectId: project.id,
      serviceId: svc.id,
    });
    let wip = await api.billing.wip.client.query({ clientId: client.id });
    expect(wip.fees).toEqual([]);
    expect(wip.covered.map((c) => c.id)).toEqual([covered.id]);

    await api.projects.setStatus.mutate({ projectId: project.id, status: 'COMPLETED' });
    const lines = await feeLines(orgId);
    expect(lines).toEqual([
      { engagementId: e.id, periodStart: start, rate: 250_000, invoiceId: expect.any(String) },
    ]);
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orgId, orgId));
    expect(invoice).toMatchObject({ status: 'draft', recurring: true, createdBy: null });
    const [entry] = await t.db.select().from(timesheetEntries).where(eq(timesheetEntries.id, covered.id));
    expect(entry?.invoiceLineId).not.toBeNull();
    const log = await logRows(t, orgId, invoice?.id ?? '');
    expect(log).toEqual([
      expect.objectContaining({
        action: 'invoice.create',
        actorKind: 'system',
        summary: expect.stringMatching(/as its project was completed/),
      }),
    ]);
    wip = await api.billing.wip.client.query({ clientId: client.id });
    expect([wip.fees, wip.covered]).toEqual([[], []]);

    // Completed again: nothing more.
    await api.projects.setStatus.mutate({ projectId: project.id, status: 'IN_PROGRESS' });
    await api.projects.setStatus.mutate({ projectId: project.id, status: 'COMPLETED' });
    expect(await invoiceCount(t, orgId)).toBe(1);
  });
});

describe('recurring billing: "when the period starts"', () => {
  const now = new Date('2026-05-10T10:00:00Z');

  /** A firm whose engagement bills monthly as each period starts, from February. */
  async function recurringFirm(name: string, mode: 'draft' | 'issue' = 'draft') {
    const f = await billingFirm(t, name);
    const svc = await fixedService(f.api, 'RET', { feeTrigger: 'manual' });
    const e = await f.api.engagements.create.mutate({
      clientId: f.client.id,
      serviceId: svc.id,
      startDate: '2026-02-01',
      fee: '1000',
    });
    // Switched straight in the table: saving it through the form would bill it by today's clock.
    await t.db.update(clientServices).set({ feeTrigger: 'period_start' }).where(eq(clientServices.id, e.id));
    if (mode === 'issue')
      await t.db.insert(billingSettings).values({ orgId: f.orgId, recurringMode: 'issue' });
    return { ...f, engagement: e };
  }

  it('bills the current period and one just missed, once, however many times the job runs', async () => {
    const { orgId, engagement } = await recurringFirm('Monthly & Co');
    await generateRecurringProjects(t.db, { orgId, through: '2026-06-10', now });
    expect((await feeLines(orgId)).map((l) => l.periodStart)).toEqual(['2026-04-01', '2026-05-01']);
    // One invoice per period, made by the system.
    const rows = await t.db.select().from(invoices).where(eq(invoices.orgId, orgId));
    expect(rows.map((r) => [r.status, r.recurring, r.total])).toEqual([
      ['draft', true, 100_000],
      ['draft', true, 100_000],
    ]);
    await billRecurringFees(t.db, { orgId, now });
    await generateRecurringProjects(t.db, { orgId, through: '2026-06-10', now });
    expect(await invoiceCount(t, orgId)).toBe(2);
    // February and March wait in WIP for a person (an engagement entered late raises no pile).
    const due = rowsOf<TFeePeriodRow>(await t.db.execute(dueFeePeriods({ orgId, now })));
    expect(due.map((d) => [d.engagement_id, d.period_start])).toEqual([
      [engagement.id, '2026-02-01'],
      [engagement.id, '2026-03-01'],
    ]);
  });

  it('makes one invoice per period when runs overlap', async () => {
    const { orgId } = await recurringFirm('Overlap & Co');
    const runs = await Promise.all(Array.from({ length: 4 }, () => billRecurringFees(t.db, { orgId, now })));
    expect(runs.reduce((n, r) => n + r.invoices, 0)).toBe(2);
    expect(await invoiceCount(t, orgId)).toBe(2);
    expect(await feeLines(orgId)).toHaveLength(2);
  });

  it('issues them when the firm bills recurring fees straight away, and does not raise a voided one again', async () => {
    const { orgId, firm } = await recurringFirm('Issue & Co', 'issue');
    await billRecurringFees(t.db, { orgId, now });
    const rows = await t.db.select().from(invoices).where(eq(invoices.orgId, orgId)).orderBy(invoices.seq);
    // Issued on the run's day, in its fiscal year, whatever the wall clock says.
    expect(rows.map((r) => [r.status, r.number, r.issueDate])).toEqual([
      ['issued', 'INV/2026-27/0001', '2026-05-10'],
      ['issued', 'INV/2026-27/0002', '2026-05-10'],
    ]);
    const log = await logRows(t, orgId, rows[0]?.id ?? '');
    expect(log.map((r) => [r.action, r.actorKind])).toEqual([
      ['invoice.create', 'system'],
      ['invoice.issue', 'system'],
    ]);
    const actor = { kind: 'member' as const, orgId, memberId: firm.owner.id };
    await t.db.transaction((tx) => voidInvoice(tx, actor, rows[1]?.id ?? '', 'Client left'));
    await billRecurringFees(t.db, { orgId, now });
    expect(await invoiceCount(t, orgId)).toBe(2);
    const stillDue = rowsOf<TFeePeriodRow>(await t.db.execute(dueFeePeriods({ orgId, now })));
    const voided = (await feeLines(orgId)).find((l) => l.invoiceId === rows[1]?.id);
    expect(stillDue.map((d) => d.period_start)).toContain(voided?.periodStart);
  });

  it('bills the current period as soon as an engagement billed "when the period starts" is saved', async () => {
    const { api, client, orgId } = await billingFirm(t, 'Saved & Co');
    const svc = await fixedService(api, 'NOW', { feeTrigger: 'period_start' });
    await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: monthStart(0),
      fee: '1000',
    });
    expect((await feeLines(orgId)).map((l) => l.periodStart)).toEqual([monthStart(0)]);
    await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: monthStart(1),
      fee: '1000',
    });
    expect(await invoiceCount(t, orgId)).toBe(1);
  });
});
