import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceLines, invoices, roles, systemLog, timesheetEntries } from '../../../db/schema';
import { createTestApp, type TTestApp } from '../../../test/app';
import { logRows, putOnTeam, seedClient } from '../../../test/fixtures';
import { seedFirmWithRoles } from '../../../test/seeded-firm';
import { issueInvoice, voidInvoice } from '..';
import { approvedTime, billingFirm, codeOf, invoiceCount, monthStart } from './wip-fixtures';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const W = '2026-03-02'; // a Monday

async function service(api: ReturnType<TTestApp['client']>, code: string, values: object = {}) {
  return api.services.create.mutate({
    name: `Service ${code}`,
    code,
    frequency: 'monthly',
    billingMode: 'hourly',
    taxCode: '998231',
    taxRate: '18',
    ...values,
  });
}

describe('work in progress: time', () => {
  it('values approved billable time at the rate frozen at approval, whatever the rate is now', async () => {
    const f = await seedFirmWithRoles(t, 'Frozen & Co');
    const client = await seedClient(t, f.org.id, { name: 'Frozen client' });
    await putOnTeam(t, f.org.id, client.id, f.staff.id);
    const owner = t.client(f.owner.token);
    const staff = t.client(f.staff.token);
    await owner.timesheets.rates.set.mutate({ kind: 'member', refId: f.staff.id, rate: 120_000 });
    await staff.timesheets.create.mutate({ date: W, minutes: 90, clientId: client.id, note: 'Books' });
    await staff.timesheets.create.mutate({ date: W, minutes: 30, note: 'Firm admin' });
    await staff.timesheets.submitWeek.mutate({ weekStart: W });
    // Not approved yet: not work in progress.
    expect((await owner.billing.wip.client.query({ clientId: client.id })).time).toEqual([]);
    await owner.timesheets.approve.mutate({ weekStart: W, memberIds: [f.staff.id] });
    await owner.timesheets.rates.set.mutate({ kind: 'member', refId: f.staff.id, rate: 200_000 });

    const wip = await owner.billing.wip.client.query({ clientId: client.id });
    expect(wip.time).toHaveLength(1);
    expect(wip.time[0]).toMatchObject({ minutes: 90, rate: 120_000, value: 180_000, note: 'Books' });
    expect(wip.names.members[wip.time[0]?.memberId ?? '']).toBe('Sam Staff');
    const list = await owner.billing.wip.list.query({});
    expect(list.rows).toEqual([
      expect.objectContaining({
        client: expect.objectContaining({ id: client.id }),
        time: { minutes: 90, value: 180_000, unrated: 0 },
        total: 180_000,
      }),
    ]);
    expect(list.totals).toMatchObject({ clients: 1, total: 180_000 });
  });

  it('bills hourly and unengaged time, shows time a fixed fee covers apart, and leaves out "not billed"', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Modes & Co');
    const hourly = await service(api, 'HR');
    const fixed = await service(api, 'FX', { billingMode: 'fixed', defaultFee: '5000' });
    const unbilled = await service(api, 'NB', { billingMode: 'none' });
    const start = monthStart(0);
    await api.engagements.create.mutate({ clientId: client.id, serviceId: hourly.id, startDate: start });
    const fixedEngagement = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: fixed.id,
      startDate: start,
      fee: '5000',
    });
    await api.engagements.create.mutate({ clientId: client.id, serviceId: unbilled.id, startDate: start });
    const m = firm.owner.id;
    await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 60,
      billRate: 100_000,
      serviceId: hourly.id,
    });
    await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 30,
      billRate: 100_000,
    });
    await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 120,
      billRate: 100_000,
      serviceId: fixed.id,
    });
    await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 45,
      billRate: 100_000,
      serviceId: unbilled.id,
    });

    const wip = await api.billing.wip.client.query({ clientId: client.id });
    expect(wip.time.map((e) => e.minutes).sort()).toEqual([30, 60]);
    expect(wip.covered).toEqual([
      expect.objectContaining({
        minutes: 120,
        value: 200_000,
        engagementId: fixedEngagement.id,
        periodStart: start,
      }),
    ]);
    expect(wip.fees).toEqual([
      expect.objectContaining({
        engagementId: fixedEngagement.id,
        periodStart: start,
        fee: 500_000,
        trigger: 'manual',
        covered: expect.objectContaining({ minutes: 120, value: 200_000 }),
      }),
    ]);
    const [row] = (await api.billing.wip.list.query({})).rows;
    expect(row).toMatchObject({
      time: { minutes: 90, value: 150_000 },
      covered: { minutes: 120, value: 200_000 },
      fees: { count: 1, value: 500_000 },
      total: 650_000,
    });
  });
});

describe('work in progress onto an invoice', () => {
  it('makes a draft: fees with the time they cover, time grouped by service, disbursements at cost', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Draft & Co');
    await t.db.execute(
      sql`insert into billing_settings (org_id, tax_regime, gst_state, default_tax_rate_bp) values (${orgId}, 'gst', '27', 500)`,
    );
    const books = await service(api, 'BK');
    const fixed = await service(api, 'FX', { billingMode: 'fixed', defaultFee: '5000.50', taxRate: '12' });
    const start = monthStart(0);
    const fee = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: fixed.id,
      startDate: start,
      fee: '5000.50',
    });
    const m = firm.owner.id;
    const a = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 90,
      billRate: 100_000,
      serviceId: books.id,
    });
    const b = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 30,
      billRate: 160_000,
      serviceId: books.id,
    });
    const c = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 20,
      billRate: 90_000,
    });
    const covered = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      date: start,
      minutes: 60,
      billRate: 100_000,
      serviceId: fixed.id,
    });
    const d = await api.billing.wip.disbursements.create.mutate({
      clientId: client.id,
      spentOn: start,
      kind: 'government_fee',
      description: 'ROC filing fee',
      amount: 60_000,
    });

    const { invoiceId } = await api.billing.wip.createInvoice.mutate({
      clientId: client.id,
      timeEntryIds: [a.id, b.id, c.id],
      fees: [{ engagementId: fee.id, periodStart: start }],
      disbursementIds: [d.id],
      groupTimeBy: 'service',
    });
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(invoiceLines.position);
    expect(lines.map((l) => l.kind)).toEqual(['fee', 'time', 'time', 'disbursement']);
    const [feeLine, booksLine, otherLine, disbLine] = lines;
    // The fee exactly, its standard value the time it covers.
    expect(feeLine).toMatchObject({
      quantityMilli: 1000,
      rate: 500_050,
      amount: 500_050,
      standardValue: 100_000,
      taxRateBp: 1200,
      engagementId: fee.id,
      periodStart: start,
    });
    // 2 h at two rates: the average rate, standard value their value (150,000 + 80,000).
    expect(booksLine).toMatchObject({
      quantityMilli: 2000,
      rate: 115_000,
      standardValue: 230_000,
      serviceId: books.id,
      taxCode: '998231',
      taxRateBp: 1800,
    });
    expect(booksLine?.description).toMatch(/^Service BK: work on /);
    // 20 minutes at one rate: that rate, the firm's default tax for time with no service.
    expect(otherLine).toMatchObject({
      quantityMilli: 333,
      rate: 90_000,
      standardValue: 30_000,
      serviceId: null,
      taxRateBp: 500,
    });
    expect(disbLine).toMatchObject({
      quantityMilli: 1000,
      rate: 60_000,
      amount: 60_000,
      standardValue: 60_000,
      taxRateBp: 0,
      cgst: 0,
    });
    expect(disbLine?.description).toBe('Government fee: ROC filing fee');
    // Everything chosen is linked to its line, and has left WIP.
    const linked = await t.db
      .select({ id: timesheetEntries.id, lineId: timesheetEntries.invoiceLineId })
      .from(timesheetEntries)
      .where(eq(timesheetEntries.orgId, orgId));
    const lineOf = new Map(linked.map((r) => [r.id, r.lineId]));
    expect(lineOf.get(covered.id)).toBe(feeLine?.id);
    expect(lineOf.get(a.id)).toBe(booksLine?.id);
    const wip = await api.billing.wip.client.query({ clientId: client.id });
    expect([wip.time, wip.covered, wip.fees, wip.disbursements]).toEqual([[], [], [], []]);
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(invoice).toMatchObject({
      status: 'draft',
      clientId: client.id,
      subtotal: 500_050 + 230_000 + 29_970 + 60_000,
    });
    const log = await logRows(t, orgId, invoiceId);
    expect(log.map((r) => r.action)).toEqual(['invoice.create']);
    expect(log[0]?.summary).toMatch(
      /^Made a draft invoice for Draft & Co client from work in progress: 1 fee, 2 time lines, 1 disbursement; ₹/,
    );
  });

  it('groups time per project or per entry, and adds to the client’s open draft', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Group & Co');
    const m = firm.owner.id;
    const p1 = await api.projects.create.mutate({ clientId: client.id, name: 'Audit' });
    const e1 = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      minutes: 60,
      billRate: 100_000,
      projectId: p1.id,
    });
    const e2 = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      minutes: 60,
      billRate: 100_000,
      projectId: p1.id,
    });
    const e3 = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      minutes: 15,
      billRate: 100_000,
      note: 'Call',
    });
    const { invoiceId } = await api.billing.wip.createInvoice.mutate({
      clientId: client.id,
      timeEntryIds: [e1.id, e2.id],
      groupTimeBy: 'project',
    });
    const wip = await api.billing.wip.client.query({ clientId: client.id });
    expect(wip.drafts.map((d) => d.id)).toEqual([invoiceId]);
    await api.billing.wip.addToDraft.mutate({ invoiceId, timeEntryIds: [e3.id], groupTimeBy: 'entry' });
    const lines = await t.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(invoiceLines.position);
    expect(lines.map((l) => [l.position, l.quantityMilli, l.projectId])).toEqual([
      [0, 2000, p1.id],
      [1, 250, null],
    ]);
    expect(lines[0]?.description).toMatch(/^Audit: work on /);
    expect(lines[1]?.description).toMatch(/· Olivia Owner: Call$/);
    expect((await logRows(t, orgId, invoiceId)).map((r) => r.action)).toEqual([
      'invoice.create',
      'invoice.update',
    ]);
    // An issued invoice takes nothing more.
    const e4 = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      minutes: 15,
      billRate: 100_000,
    });
    await t.db.transaction((tx) =>
      issueInvoice(tx, { kind: 'member', orgId, memberId: m }, invoiceId, { memberId: m }),
    );
    expect(await codeOf(api.billing.wip.addToDraft.mutate({ invoiceId, timeEntryIds: [e4.id] }))).toMatch(
      /^BAD_REQUEST: An issued invoice cannot be changed/,
    );
  });

  it('never bills time twice, not even from two requests at once; a void brings it back', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Twice & Co');
    const m = firm.owner.id;
    const e = await approvedTime(t, orgId, {
      memberId: m,
      clientId: client.id,
      minutes: 60,
      billRate: 100_000,
    });
    const input = { clientId: client.id, timeEntryIds: [e.id] };
    const results = await Promise.allSettled([
      api.billing.wip.createInvoice.mutate(input),
      api.billing.wip.createInvoice.mutate(input),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.data.code).toBe('CONFLICT');
    expect(await invoiceCount(t, orgId)).toBe(1);
    expect(await codeOf(api.billing.wip.createInvoice.mutate(input))).toMatch(
      /^CONFLICT: Some of this work has been billed already/,
    );

    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orgId, orgId));
    const actor = { kind: 'member' as const, orgId, memberId: m };
    await t.db.transaction((tx) => issueInvoice(tx, actor, invoice?.id ?? '', { memberId: m }));
    await t.db.transaction((tx) => voidInvoice(tx, actor, invoice?.id ?? '', 'Wrong client'));
    const back = await api.billing.wip.client.query({ clientId: client.id });
    expect(back.time.map((x) => x.id)).toEqual([e.id]);
    await api.billing.wip.createInvoice.mutate(input);
    expect(await invoiceCount(t, orgId)).toBe(2);
  });

  it('bills chosen work once when many ask at once (separate connections on PostgreSQL)', async () => {
    const { firm, api, client, orgId } = await billingFirm(t, 'Rush & Co');
    const entries = await Promise.all(
      Array.from({ length: 5 }, () =>
        approvedTime(t, orgId, {
          memberId: firm.owner.id,
          clientId: client.id,
          minutes: 60,
          billRate: 100_000,
        }),
      ),
    );
    const d = await api.billing.wip.disbursements.create.mutate({
      clientId: client.id,
      spentOn: '2026-03-03',
      kind: 'courier',
      description: 'Courier',
      amount: 500,
    });
    const input = { clientId: client.id, timeEntryIds: entries.map((e) => e.id), disbursementIds: [d.id] };
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => api.billing.wip.createInvoice.mutate(input)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await invoiceCount(t, orgId)).toBe(1);
    const lines = await t.db.select().from(invoiceLines).where(eq(invoiceLines.orgId, orgId));
    expect(lines).toHaveLength(2);
  });
});

describe('who sees and bills work in progress', () => {
  it('answers NOT_FOUND for another firm’s client, time, fees, disbursements and drafts', async () => {
    const a = await billingFirm(t, 'Own & Co');
    const b = await billingFirm(t, 'Other & Co');
    const theirTime = await approvedTime(t, b.orgId, {
      memberId: b.firm.owner.id,
      clientId: b.client.id,
      minutes: 60,
      billRate: 1,
    });
    const theirDisb = await b.api.billing.wip.disbursements.create.mutate({
      clientId: b.client.id,
      spentOn: '2026-03-03',
      kind: 'courier',
      description: 'Courier',
      amount: 500,
    });
    const { invoiceId } = await b.api.billing.wip.createInvoice.mutate({
      clientId: b.client.id,
      timeEntryIds: [theirTime.id],
    });
    const theirTime2 = await approvedTime(t, b.orgId, {
      memberId: b.firm.owner.id,
      clientId: b.client.id,
      minutes: 60,
      billRate: 1,
    });
    const svc = await service(b.api, 'TX', { billingMode: 'fixed', defaultFee: '100' });
    const theirFee = await b.api.engagements.create.mutate({
      clientId: b.client.id,
      serviceId: svc.id,
      startDate: monthStart(0),
      fee: '100',
    });
    const api = a.api;
    const refused = async (p: Promise<unknown>) => expect(await codeOf(p)).toMatch(/^NOT_FOUND/);
    await refused(api.billing.wip.client.query({ clientId: b.client.id }));
    await refused(
      api.billing.wip.createInvoice.mutate({ clientId: b.client.id, timeEntryIds: [theirTime2.id] }),
    );
    await refused(
      api.billing.wip.createInvoice.mutate({ clientId: a.client.id, timeEntryIds: [theirTime2.id] }),
    );
    await refused(
      api.billing.wip.createInvoice.mutate({ clientId: a.client.id, disbursementIds: [theirDisb.id] }),
    );
    await refused(
      api.billing.wip.createInvoice.mutate({
        clientId: a.client.id,
        fees: [{ engagementId: theirFee.id, periodStart: monthStart(0) }],
      }),
    );
    await refused(api.billing.wip.addToDraft.mutate({ invoiceId, timeEntryIds: [theirTime2.id] }));
    await refused(
      api.billing.wip.disbursements.update.mutate({
        disbursementId: theirDisb.id,
        spentOn: '2026-03-03',
        kind: 'courier',
        description: 'x',
        amount: 1,
      }),
    );
    await refused(api.billing.wip.disbursements.delete.mutate({ disbursementId: theirDisb.id }));
    await refused(api.billing.wip.disbursements.receiptFolder.mutate({ clientId: b.client.id }));
    expect((await api.billing.wip.list.query({})).rows).toEqual([]);
    // Nothing of theirs moved.
    const [still] = await t.db.select().from(timesheetEntries).where(eq(timesheetEntries.id, theirTime2.id));
    expect(still?.invoiceLineId).toBeNull();
  });

  it('shows a member limited to assigned clients only theirs, and refuses a member without billing rights', async () => {
    const f = await seedFirmWithRoles(t, 'Limited & Co');
    const mine = await seedClient(t, f.org.id, { name: 'Mine' });
    const theirs = await seedClient(t, f.org.id, { name: 'Theirs' });
    await putOnTeam(t, f.org.id, mine.id, f.staff.id);
    for (const c of [mine, theirs])
      await approvedTime(t, f.org.id, { memberId: f.owner.id, clientId: c.id, minutes: 60, billRate: 100 });
    const staff = t.client(f.staff.token);
    expect(await codeOf(staff.billing.wip.list.query({}))).toMatch(/^FORBIDDEN/);
    await t.db
      .update(roles)
      .set({ permissions: sql`${roles.permissions} || array['billing.view', 'billing.manage']::text[]` })
      .where(eq(roles.id, f.roles.staff.id));
    const list = await staff.billing.wip.list.query({});
    expect(list.rows.map((r) => r.client.name)).toEqual(['Mine']);
    expect(list.totals.clients).toBe(1);
    expect(await codeOf(staff.billing.wip.client.query({ clientId: theirs.id }))).toMatch(/^NOT_FOUND/);
    const theirTime = await approvedTime(t, f.org.id, {
      memberId: f.owner.id,
      clientId: theirs.id,
      minutes: 5,
      billRate: 100,
    });
    expect(
      await codeOf(
        staff.billing.wip.createInvoice.mutate({ clientId: theirs.id, timeEntryIds: [theirTime.id] }),
      ),
    ).toMatch(/^NOT_FOUND/);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const { api, client, firm, orgId } = await billingFirm(t, 'Bad & Co');
    const e = await approvedTime(t, orgId, {
      memberId: firm.owner.id,
      clientId: client.id,
      minutes: 60,
      billRate: 100,
    });
    const bad = async (p: Promise<unknown>, message: RegExp) => expect(await codeOf(p)).toMatch(message);
    await bad(
      api.billing.wip.createInvoice.mutate({ clientId: client.id }),
      /^BAD_REQUEST: Choose something to bill/,
    );
    await bad(
      api.billing.wip.createInvoice.mutate({ clientId: client.id, timeEntryIds: ['not-a-uuid'] }),
      /^BAD_REQUEST: Choose time from work in progress/,
    );
    await bad(
      api.billing.wip.createInvoice.mutate({
        clientId: client.id,
        timeEntryIds: [e.id],
        groupTimeBy: 'member' as 'entry',
      }),
      /^BAD_REQUEST: Choose how time is grouped/,
    );
    await bad(
      api.billing.wip.createInvoice.mutate({
        clientId: client.id,
        fees: [{ engagementId: e.id, periodStart: '9999-01-01' }],
      }),
      /^BAD_REQUEST: Choose a date between 2000 and 2100/,
    );
    const disb = {
      clientId: client.id,
      spentOn: '2026-03-03',
      kind: 'courier' as const,
      description: 'Courier',
      amount: 100,
    };
    await bad(
      api.billing.wip.disbursements.create.mutate({ ...disb, amount: -1 }),
      /^BAD_REQUEST: Amount cannot be negative/,
    );
    await bad(
      api.billing.wip.disbursements.create.mutate({ ...disb, amount: 0 }),
      /^BAD_REQUEST: Amount must be more than zero/,
    );
    await bad(api.billing.wip.disbursements.create.mutate({ ...disb, amount: 2 ** 60 }), /^BAD_REQUEST/);
    await bad(api.billing.wip.disbursements.create.mutate({ ...disb, amount: 1.5 }), /^BAD_REQUEST/);
    await bad(
      api.billing.wip.disbursements.create.mutate({ ...disb, description: 'a\u0000b' }),
      /^BAD_REQUEST/,
    );
    await bad(
      api.billing.wip.disbursements.create.mutate({ ...disb, spentOn: '1900-01-01' }),
      /^BAD_REQUEST: Choose a date between 2000 and 2100/,
    );
    // A fee that is not due (a period that has not started) is refused, not billed.
    const svc = await service(api, 'FX', { billingMode: 'fixed', defaultFee: '100' });
    const fee = await api.engagements.create.mutate({
      clientId: client.id,
      serviceId: svc.id,
      startDate: monthStart(0),
      fee: '100',
    });
    await bad(
      api.billing.wip.createInvoice.mutate({
        clientId: client.id,
        fees: [{ engagementId: fee.id, periodStart: monthStart(2) }],
      }),
      /^BAD_REQUEST: That fee is not due for that period/,
    );
    // Too many lines for one invoice: told how to make fewer.
    const many = await Promise.all(
      Array.from({ length: 201 }, () =>
        approvedTime(t, orgId, { memberId: firm.owner.id, clientId: client.id, minutes: 6, billRate: 100 }),
      ),
    );
    await bad(
      api.billing.wip.createInvoice.mutate({
        clientId: client.id,
        timeEntryIds: many.map((x) => x.id),
        groupTimeBy: 'entry',
      }),
      /^BAD_REQUEST: That makes 201 lines and an invoice holds at most 200/,
    );
    expect(await invoiceCount(t, orgId)).toBe(0);
    expect(
      await t.db.$count(systemLog, and(eq(systemLog.orgId, orgId), eq(systemLog.action, 'invoice.create'))),
    ).toBe(0);
  });
});
