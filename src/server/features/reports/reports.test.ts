import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/days';
import { projects, roles, systemLog, taskStatusChanges } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { putOnTeam, seedClient } from '../../test/fixtures';
import { codeOf } from '../../test/outcome';
import { lastAndThisMonth } from '../../test/report-period';
import { seedFirmWithRoles } from '../../test/seeded-firm';

// One firm whose work is set up through the router (tasks, status changes, time, rates), with the
// generated projects written as the recurring job would, and every report read against it.

let t: TTestApp;
let f: Awaited<ReturnType<typeof world>>;

const { today, monthStart, prevMonthStart, monthEnd, period } = lastAndThisMonth();
const past = addDays(prevMonthStart, 10);

async function world() {
  const firm = await seedFirmWithRoles(t, 'Reports firm');
  const owner = t.client(firm.owner.token);
  const staff = t.client(firm.staff.token);
  const a = await seedClient(t, firm.org.id, { name: 'Aarav Traders', code: 'C001' });
  const b = await seedClient(t, firm.org.id, { name: 'Bela Foods', code: 'C002' });
  await putOnTeam(t, firm.org.id, a.id, firm.staff.id);
  const gst = await owner.services.create.mutate({ name: 'GST return', code: 'GST', frequency: 'monthly' });
  const engA = await owner.engagements.create.mutate({
    clientId: a.id,
    serviceId: gst.id,
    startDate: '2026-01-01',
  });
  await owner.engagements.create.mutate({ clientId: b.id, serviceId: gst.id, startDate: '2026-01-01' });
  // A's two GST periods, as the recurring job makes them: last month's filed on time, this month's under way.
  const prevKey = prevMonthStart.slice(0, 7);
  const thisKey = monthStart.slice(0, 7);
  const [filed, open] = await t.db
    .insert(projects)
    .values([
      {
        orgId: firm.org.id,
        clientId: a.id,
        serviceId: gst.id,
        clientServiceId: engA.id,
        name: `GST return · ${prevKey}`,
        periodKey: prevKey,
        periodStart: prevMonthStart,
        periodEnd: addDays(monthStart, -1),
        dueDate: addDays(monthStart, 19),
        status: 'COMPLETED' as const,
        completedDate: new Date(`${prevMonthStart}T12:00:00Z`),
        budgetMinutes: 240,
        createdAt: new Date(`${prevMonthStart}T09:00:00Z`),
      },
      {
        orgId: firm.org.id,
        clientId: a.id,
        serviceId: gst.id,
        clientServiceId: engA.id,
        name: `GST return · ${thisKey}`,
        periodKey: thisKey,
        periodStart: monthStart,
        periodEnd: monthEnd,
        dueDate: monthEnd,
        status: 'IN_PROGRESS' as const,
      },
    ])
    .returning();
  if (!filed || !open) throw new Error('projects not made');
  const task = (title: string, extra: Record<string, unknown>) =>
    owner.tasks.create.mutate({ title, clientId: a.id, ...extra });
  const overdue = await task('Collect invoices', {
    dueDate: past,
    assigneeIds: [firm.staff.id],
    budgetMinutes: 120,
  });
  const underWay = await task('Reconcile', {
    dueDate: monthEnd,
    assigneeIds: [firm.staff.id],
    budgetMinutes: 60,
  });
  const late = await task('File return', { dueDate: past });
  await task('Upload bank statement', { dueDate: monthEnd, forClient: true });
  const onTime = await task('Review', { dueDate: today });
  await owner.tasks.create.mutate({ title: 'Bela books', clientId: b.id, dueDate: past });
  await owner.tasks.setStatus.mutate({ taskId: underWay.id, status: 'IN_PROGRESS' });
  await owner.tasks.bulk.mutate({ ids: [late.id], action: { kind: 'setStatus', status: 'COMPLETED' } });
  await owner.tasks.setStatus.mutate({ taskId: onTime.id, status: 'COMPLETED' });
  await owner.timesheets.rates.set.mutate({ kind: 'member', refId: firm.staff.id, rate: 100000 });
  await staff.timesheets.create.mutate({ date: today, minutes: 90, clientId: a.id, billable: true });
  await owner.timesheets.create.mutate({ date: today, minutes: 30, clientId: a.id, billable: false });
  await owner.timesheets.create.mutate({ date: today, minutes: 45, clientId: b.id, billable: true });
  return { ...firm, api: owner, a, b, gst, filed, open, tasks: { overdue, underWay, late, onTime } };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await world();
});
afterAll(() => t?.close());

describe('task status history', () => {
  it('records each change (who, from, to) in the transaction of the change, whatever the path', async () => {
    const rows = await t.db
      .select()
      .from(taskStatusChanges)
      .where(eq(taskStatusChanges.orgId, f.org.id))
      .orderBy(asc(taskStatusChanges.at));
    expect(rows.map((r) => [r.taskId, r.fromStatus, r.toStatus, r.memberId])).toEqual([
      [f.tasks.underWay.id, 'SCHEDULED', 'IN_PROGRESS', f.owner.id],
      [f.tasks.late.id, 'SCHEDULED', 'COMPLETED', f.owner.id],
      [f.tasks.onTime.id, 'SCHEDULED', 'COMPLETED', f.owner.id],
    ]);
    // The same status again is no change, and writes nothing.
    await f.api.tasks.setStatus.mutate({ taskId: f.tasks.onTime.id, status: 'COMPLETED' });
    const again = await t.db
      .select()
      .from(taskStatusChanges)
      .where(and(eq(taskStatusChanges.orgId, f.org.id), eq(taskStatusChanges.taskId, f.tasks.onTime.id)));
    expect(again).toHaveLength(1);
  });
});

describe('client summary', () => {
  it('counts each client’s work, time and money from the data, with totals and paging', async () => {
    const r = await f.api.reports.clientSummary.query(period);
    expect(r.total).toBe(2);
    const a = r.rows.find((x) => x.id === f.a.id);
    expect(a).toMatchObject({
      projects: 2,
      projectsCompleted: 1,
      tasks: { scheduled: 2, inProgress: 1, inReview: 0, completed: 2 },
      openTasks: 3,
      overdue: 1,
      onTimeShare: 50,
      pendingTodos: 1,
      billableMinutes: 90,
      otherMinutes: 30,
      budgetMinutes: 240,
      billableValue: 150000,
    });
    expect(r.totals).toMatchObject({ overdue: 2, billableMinutes: 135, otherMinutes: 30, pendingTodos: 1 });
    const second = await f.api.reports.clientSummary.query({ ...period, pageSize: 1, page: 2, sort: 'name' });
    expect(second.rows.map((x) => x.name)).toEqual(['Bela Foods']);
    const byOverdue = await f.api.reports.clientSummary.query({
      ...period,
      sort: 'minutes',
      direction: 'desc',
    });
    expect(byOverdue.rows.map((x) => x.name)).toEqual(['Aarav Traders', 'Bela Foods']);
    // A later page of a measure's order: ranked by it, then measured like any page.
    const secondByMinutes = await f.api.reports.clientSummary.query({
      ...period,
      sort: 'minutes',
      direction: 'desc',
      pageSize: 1,
      page: 2,
    });
    expect(secondByMinutes.rows).toEqual([r.rows.find((x) => x.name === 'Bela Foods')]);
    expect(secondByMinutes.totals).toEqual(r.totals);
    expect(secondByMinutes.total).toBe(2);
    // By name the page is measured alone and the totals summed apart; by a measure, every client is
    // measured and the totals are windows over them: the same figures either way, on any page.
    expect(second.totals).toEqual(r.totals);
    expect(second.total).toBe(2);
    expect(byOverdue.totals).toEqual(r.totals);
    expect(byOverdue.total).toBe(2);
  });

  it('counts billable time no rate covers, so a zero value is not taken for worthless time', async () => {
    const r = await f.api.reports.clientSummary.query(period);
    expect(r.rows.find((x) => x.id === f.a.id)).toMatchObject({ unratedMinutes: 0 });
    expect(r.rows.find((x) => x.id === f.b.id)).toMatchObject({ billableValue: 0, unratedMinutes: 45 });
    expect(r.totals).toMatchObject({ unratedMinutes: 45 });
    const manager = await t.client(f.manager.token).reports.clientSummary.query(period);
    expect(JSON.stringify(manager)).not.toMatch(/unratedMinutes/);
  });

  it('sends no money without timesheets.rates, and refuses callers without reports.view', async () => {
    const manager = t.client(f.manager.token);
    const r = await manager.reports.clientSummary.query(period);
    expect(JSON.stringify(r)).not.toMatch(/billableValue/);
    expect(r.money).toBe(false);
    expect(await codeOf(t.client(f.staff.token).reports.clientSummary.query(period))).toBe('FORBIDDEN');
    expect(await codeOf(t.client(f.staff.token).reports.headlines.query())).toBe('FORBIDDEN');
  });

  it('refuses a backwards or too long period and bad filters, clearly', async () => {
    const q = f.api.reports.clientSummary.query;
    expect(await codeOf(q({ from: monthEnd, to: prevMonthStart }))).toBe('BAD_REQUEST');
    expect(await codeOf(q({ from: '2020-01-01', to: '2026-01-01' }))).toBe('BAD_REQUEST');
    expect(await codeOf(q({ ...period, tag: 'a\u0000b' }))).toBe('BAD_REQUEST');
    expect(await codeOf(q({ ...period, pageSize: 2 ** 31 }))).toBe('BAD_REQUEST');
  });
});

describe('team summary', () => {
  it('shows each member’s open work, budgets ahead, time and billable share', async () => {
    const r = await f.api.reports.teamSummary.query(period);
    const staff = r.rows.find((x) => x.id === f.staff.id);
    expect(staff).toMatchObject({
      openTasks: 2,
      overdue: 1,
      workAheadMinutes: 180,
      minutes: 90,
      billableMinutes: 90,
      billableShare: 100,
      billableValue: 150000,
    });
    expect(r.heatMap.find((h) => h.memberId === f.staff.id)?.days).toHaveLength(28);
    const manager = await t.client(f.manager.token).reports.teamSummary.query(period);
    expect(JSON.stringify(manager)).not.toMatch(/billableValue|"cost"/);
  });

  it('says what its figures leave out: open tasks without a budget, time without a rate', async () => {
    const r = await f.api.reports.teamSummary.query(period);
    const staff = r.rows.find((x) => x.id === f.staff.id);
    const owner = r.rows.find((x) => x.id === f.owner.id);
    // The staff member's time has a rate but no cost rate; the owner's billable 45 minutes have none.
    expect(staff).toMatchObject({ unbudgetedTasks: 0, unratedMinutes: 0, uncostedMinutes: 90 });
    expect(owner).toMatchObject({ unratedMinutes: 45, uncostedMinutes: 75, billableValue: 0 });
    expect(r.totals).toMatchObject({ unratedMinutes: 45, uncostedMinutes: 165 });
    const loose = await f.api.tasks.create.mutate({
      title: 'No budget yet',
      clientId: f.a.id,
      dueDate: monthEnd,
      assigneeIds: [f.staff.id],
    });
    try {
      const again = await f.api.reports.teamSummary.query(period);
      expect(again.rows.find((x) => x.id === f.staff.id)).toMatchObject({
        openTasks: 3,
        unbudgetedTasks: 1,
        workAheadMinutes: 180,
      });
      expect(again.totals?.unbudgetedTasks).toBe((r.totals?.unbudgetedTasks ?? 0) + 1);
    } finally {
      await f.api.tasks.delete.mutate({ taskId: loose.id });
    }
    const manager = await t.client(f.manager.token).reports.teamSummary.query(period);
    expect(JSON.stringify(manager)).not.toMatch(/unratedMinutes|uncostedMinutes/);
  });

  it('shares a task’s budget among its assignees', async () => {
    const shared = await f.api.tasks.create.mutate({
      title: 'Shared review',
      clientId: f.a.id,
      dueDate: monthEnd,
      assigneeIds: [f.staff.id, f.owner.id],
      budgetMinutes: 100,
    });
    try {
      const r = await f.api.reports.teamSummary.query(period);
      expect(r.rows.find((x) => x.id === f.staff.id)?.workAheadMinutes).toBe(230);
    } finally {
      await f.api.tasks.delete.mutate({ taskId: shared.id });
    }
  });

  it('counts a completion in the period for every assignee, whoever joins it, until it is reopened', async () => {
    const completed = async (id: string) =>
      (await f.api.reports.teamSummary.query(period)).rows.find((x) => x.id === id)?.completed ?? 0;
    const [staffBefore, ownerBefore] = [await completed(f.staff.id), await completed(f.owner.id)];
    const task = await f.api.tasks.create.mutate({
      title: 'Quarter close',
      clientId: f.a.id,
      dueDate: monthEnd,
      assigneeIds: [f.staff.id],
    });
    try {
      await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'COMPLETED' });
      expect(await completed(f.staff.id)).toBe(staffBefore + 1);
      // An assignee added after the completion carries it too.
      await f.api.tasks.update.mutate({ taskId: task.id, patch: { assigneeIds: [f.staff.id, f.owner.id] } });
      expect(await completed(f.owner.id)).toBe(ownerBefore + 1);
      await f.api.tasks.setStatus.mutate({ taskId: task.id, status: 'IN_PROGRESS' });
      expect([await completed(f.staff.id), await completed(f.owner.id)]).toEqual([staffBefore, ownerBefore]);
      await f.api.tasks.bulk.mutate({ ids: [task.id], action: { kind: 'setStatus', status: 'COMPLETED' } });
      expect(await completed(f.staff.id)).toBe(staffBefore + 1);
    } finally {
      await f.api.tasks.delete.mutate({ taskId: task.id });
    }
  });
});

describe('services summary and the compliance grid', () => {
  it('compares the engagements’ expected projects with those made, and lists the work never started', async () => {
    // Time on the budgeted (filed) project counts against its budget.
    const entry = await f.api.timesheets.create.mutate({
      date: today,
      minutes: 50,
      clientId: f.a.id,
      projectId: f.filed.id,
      billable: true,
    });
    const r = await f.api.reports.servicesSummary
      .query(period)
      .finally(() => f.api.timesheets.delete.mutate({ entryId: entry.id }));
    expect(r.rows.find((x) => x.id === f.gst.id)).toMatchObject({
      engagements: 2,
      expected: 4,
      created: 2,
      completed: 1,
      onTime: 1,
      notStarted: 2,
      budgetMinutes: 240,
      actualMinutes: 50,
      // Made at 09:00, completed at 12:00 the same day.
      avgCycleDays: 0.1,
    });
    const missing = await f.api.reports.notStarted.query({ ...period, serviceId: f.gst.id });
    expect(missing.rows.map((m) => [m.name, m.periodKey])).toEqual([
      ['Bela Foods', prevMonthStart.slice(0, 7)],
      ['Bela Foods', monthStart.slice(0, 7)],
    ]);
  });

  it('shows each engaged client’s periods as filed, in progress or not started, a cell naming its project', async () => {
    const g = await f.api.reports.complianceGrid.query({ ...period, serviceId: f.gst.id });
    expect(g.periods.map((p) => p.key)).toEqual([prevMonthStart.slice(0, 7), monthStart.slice(0, 7)]);
    expect(g.rows.map((r) => [r.name, r.cells.map((c) => c.state)])).toEqual([
      ['Aarav Traders', ['filed', 'in_progress']],
      ['Bela Foods', ['not_started', 'not_started']],
    ]);
    expect(g.rows[0]?.cells[0]?.projectId).toBe(f.filed.id);
    const other = await seedFirmWithRoles(t, 'Other firm');
    const theirs = await t.client(other.owner.token).services.create.mutate({
      name: 'TDS',
      code: 'TDS',
      frequency: 'quarterly',
    });
    expect(await codeOf(f.api.reports.complianceGrid.query({ ...period, serviceId: theirs.id }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('exports and saved views', () => {
  const download = async (path: string, token: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: res.status,
      total: res.headers.get('x-total-count'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const query = new URLSearchParams({ ...period, sort: 'name', direction: 'asc' }).toString();

  it('exports exactly the filtered rows as CSV and XLSX, money only for those who see it, and logs it', async () => {
    const csv = await download(`/api/reports/client/export.csv?${query}`, f.owner.token);
    expect(csv.status).toBe(200);
    const lines = csv.body
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Billable value');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Aarav Traders', 'Bela Foods']);
    expect(lines[1]).toContain(',1500.00');
    // In the order of a measure (ranked once, then read page by page like the name's).
    const fewestMinutes = await download(
      `/api/reports/client/export.csv?${new URLSearchParams({ ...period, sort: 'minutes', direction: 'asc' })}`,
      f.owner.token,
    );
    expect(
      fewestMinutes.body
        .toString('utf8')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[1]),
    ).toEqual(['Bela Foods', 'Aarav Traders']);
    const grouped = await download(
      `/api/reports/client/export.csv?${query}&memberId=${f.staff.id}`,
      f.owner.token,
    );
    expect(grouped.total).toBe('1');
    const manager = await download(`/api/reports/team/export.csv?${query}`, f.manager.token);
    expect(manager.body.toString('utf8')).not.toMatch(/Billable value|Cost/);
    const xlsx = await download(`/api/reports/services/export.xlsx?${query}`, f.owner.token);
    expect(xlsx.status).toBe(200);
    expect([...xlsx.body.subarray(0, 2)]).toEqual([0x50, 0x4b]);
    expect(
      (await download(`/api/reports/client/export.csv?from=2026-13-01&to=x`, f.owner.token)).status,
    ).toBe(400);
    expect((await download(`/api/reports/client/export.csv?${query}`, f.staff.token)).status).toBe(403);
    const logged = await t.db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'report.export')));
    expect(logged.length).toBe(5);
  });

  it('keeps each member’s saved views to themselves', async () => {
    const mine = await f.api.reports.views.save.mutate({
      report: 'grid',
      name: 'GST overdue',
      search: { view: 'grid', serviceId: f.gst.id },
    });
    await f.api.reports.views.save.mutate({
      report: 'grid',
      name: 'GST overdue',
      search: { view: 'grid', from: period.from },
    });
    expect(await f.api.reports.views.list.query({ report: 'grid' })).toEqual([
      { id: mine.id, name: 'GST overdue', search: { view: 'grid', from: period.from } },
    ]);
    const manager = t.client(f.manager.token);
    expect(await manager.reports.views.list.query({ report: 'grid' })).toEqual([]);
    expect(await codeOf(manager.reports.views.delete.mutate({ viewId: mine.id }))).toBe('NOT_FOUND');
    expect(await codeOf(f.api.reports.views.save.mutate({ report: 'grid', name: ' ', search: {} }))).toBe(
      'BAD_REQUEST',
    );
    await f.api.reports.views.delete.mutate({ viewId: mine.id });
    expect(await f.api.reports.views.list.query({ report: 'grid' })).toEqual([]);
  });
});

describe('a member limited to assigned clients', () => {
  it('sees only their clients’ figures once their role may view reports', async () => {
    await t.db
      .update(roles)
      .set({ permissions: ['clients.view', 'tasks.view', 'timesheets.view', 'reports.view'] })
      .where(eq(roles.id, f.roles.staff.id));
    const staff = t.client(f.staff.token);
    const clients = await staff.reports.clientSummary.query(period);
    expect(clients.rows.map((r) => r.name)).toEqual(['Aarav Traders']);
    expect(clients.totals?.billableMinutes).toBe(90);
    const grid = await staff.reports.complianceGrid.query({ ...period, serviceId: f.gst.id });
    expect(grid.rows.map((r) => r.name)).toEqual(['Aarav Traders']);
    const services = await staff.reports.servicesSummary.query(period);
    expect(services.rows.find((x) => x.id === f.gst.id)).toMatchObject({ engagements: 1, notStarted: 0 });
    const team = await staff.reports.teamSummary.query(period);
    expect(team.rows.find((x) => x.id === f.owner.id)?.minutes).toBe(30);
    // Work on a client outside their list counts for the firm, not in their view of it.
    const onB = await f.api.tasks.create.mutate({
      title: 'Bela ledger',
      clientId: f.b.id,
      dueDate: past,
      assigneeIds: [f.staff.id],
      budgetMinutes: 30,
    });
    try {
      const firmWide = (await f.api.reports.teamSummary.query(period)).rows.find((x) => x.id === f.staff.id);
      expect(firmWide).toMatchObject({ openTasks: 3, overdue: 2, workAheadMinutes: 210 });
      const theirs = (await staff.reports.teamSummary.query(period)).rows.find((x) => x.id === f.staff.id);
      expect(theirs).toMatchObject({ openTasks: 2, overdue: 1, workAheadMinutes: 180 });
    } finally {
      await f.api.tasks.delete.mutate({ taskId: onB.id });
    }
    const headlines = await staff.reports.headlines.query();
    expect(headlines.clientsBehind).toBe(1);
  });
});
