import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/days';
import { clientServices, projects, timesheetEntries, timesheetRates } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { putOnTeam, seedClient } from '../../test/fixtures';
import { lastAndThisMonth } from '../../test/report-period';
import { seedFirmWithRoles } from '../../test/seeded-firm';

// The reports read time and engagement periods by shortcuts (approved time apart from the rest, the
// expected periods by engagement dates, the started ones from the projects' side): each figure here
// is checked against a plain recount, entry by entry and period by period, after every kind of edit.

let t: TTestApp;
let f: Awaited<ReturnType<typeof world>>;

const { today, monthStart, prevMonthStart, period } = lastAndThisMonth();
const outside = addDays(prevMonthStart, -40);

async function world() {
  const firm = await seedFirmWithRoles(t, 'Recount firm');
  const api = t.client(firm.owner.token);
  const a = await seedClient(t, firm.org.id, { name: 'Alpha', code: 'A1' });
  const b = await seedClient(t, firm.org.id, { name: 'Beta', code: 'B1' });
  const c = await seedClient(t, firm.org.id, { name: 'Gamma', code: 'G1' });
  await putOnTeam(t, firm.org.id, a.id, firm.staff.id);
  await putOnTeam(t, firm.org.id, b.id, firm.staff.id);
  const gst = await api.services.create.mutate({ name: 'GST', code: 'GST', frequency: 'monthly' });
  await api.timesheets.rates.set.mutate({ kind: 'member', refId: firm.staff.id, rate: 100000 });
  await api.timesheets.rates.set.mutate({ kind: 'cost', refId: firm.staff.id, rate: 40000 });
  await api.timesheets.rates.set.mutate({ kind: 'client', refId: b.id, rate: 250000 });
  return { ...firm, api, a, b, c, gst };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await world();
});
afterAll(() => t?.close());

type TTime = { minutes: number; billable: number; other: number; value: number; cost: number };

/** The period's time per member and per client, valued entry by entry as the rate rule says. */
async function recountTime() {
  const rates = await t.db.select().from(timesheetRates).where(eq(timesheetRates.orgId, f.org.id));
  const rate = (kind: string, id: string | null) =>
    id ? rates.find((r) => r.kind === kind && r.refId === id)?.rate : undefined;
  const entries = await t.db
    .select()
    .from(timesheetEntries)
    .where(
      and(
        eq(timesheetEntries.orgId, f.org.id),
        sql`${timesheetEntries.date} between ${period.from} and ${period.to}`,
      ),
    );
  const byMember = new Map<string, TTime>();
  const byClient = new Map<string, TTime>();
  const add = (map: Map<string, TTime>, key: string, e: (typeof entries)[number]) => {
    const approved = e.status === 'approved';
    const bill = approved
      ? e.billRate
      : (rate('task', e.taskId) ??
        rate('service', e.serviceId) ??
        rate('client', e.clientId) ??
        rate('member', e.memberId));
    const cost = approved ? e.costRate : rate('cost', e.memberId);
    const row = map.get(key) ?? { minutes: 0, billable: 0, other: 0, value: 0, cost: 0 };
    row.minutes += e.minutes;
    if (e.billable) row.billable += e.minutes;
    else row.other += e.minutes;
    if (e.billable && bill != null) row.value += e.minutes * bill;
    if (cost != null) row.cost += e.minutes * cost;
    map.set(key, row);
  };
  for (const e of entries) {
    add(byMember, e.memberId, e);
    if (e.clientId) add(byClient, e.clientId, e);
  }
  const rounded = (map: Map<string, TTime>) =>
    new Map(
      [...map].map(([k, v]) => [k, { ...v, value: Math.round(v.value / 60), cost: Math.round(v.cost / 60) }]),
    );
  return { byMember: rounded(byMember), byClient: rounded(byClient) };
}

async function expectTimeMatches() {
  const want = await recountTime();
  const zero = { minutes: 0, billable: 0, other: 0, value: 0, cost: 0 };
  const team = await f.api.reports.teamSummary.query(period);
  for (const r of team.rows) {
    const w = want.byMember.get(r.id) ?? zero;
    expect({
      id: r.id,
      minutes: r.minutes,
      billable: r.billableMinutes,
      value: r.billableValue,
      cost: r.cost,
    }).toEqual({ id: r.id, minutes: w.minutes, billable: w.billable, value: w.value, cost: w.cost });
  }
  const sum = (k: keyof TTime) => [...want.byClient.values()].reduce((n, v) => n + v[k], 0);
  for (const sort of ['name', 'minutes'] as const) {
    const clients = await f.api.reports.clientSummary.query({ ...period, sort });
    for (const r of clients.rows) {
      const w = want.byClient.get(r.id) ?? zero;
      expect({
        id: r.id,
        billable: r.billableMinutes,
        other: r.otherMinutes,
        value: r.billableValue,
      }).toEqual({
        id: r.id,
        billable: w.billable,
        other: w.other,
        value: w.value,
      });
    }
    expect(clients.totals).toMatchObject({ billableMinutes: sum('billable'), otherMinutes: sum('other') });
  }
}

describe('time in the team and client summaries', () => {
  it('values approved time at its frozen rates and other time at today’s, through every edit', async () => {
    const staff = t.client(f.staff.token);
    const mine = await staff.timesheets.create.mutate({
      date: today,
      minutes: 90,
      clientId: f.a.id,
      billable: true,
    });
    const onB = await staff.timesheets.create.mutate({
      date: today,
      minutes: 45,
      clientId: f.b.id,
      billable: true,
    });
    await f.api.timesheets.create.mutate({ date: today, minutes: 30, clientId: f.c.id, billable: false });
    const internal = await staff.timesheets.create.mutate({
      date: today,
      minutes: 20,
      billable: false,
      note: 'Training',
    });
    // Approved time, as approval leaves it: rates frozen, whatever the rates say later.
    const [approved] = await t.db
      .insert(timesheetEntries)
      .values({
        orgId: f.org.id,
        memberId: f.staff.id,
        date: addDays(prevMonthStart, 3),
        minutes: 120,
        clientId: f.b.id,
        billable: true,
        status: 'approved',
        billRate: 120000,
        costRate: 30000,
      })
      .returning();
    if (!approved) throw new Error('entry not made');
    await expectTimeMatches();

    await f.api.timesheets.rates.set.mutate({ kind: 'client', refId: f.b.id, rate: 300000 });
    await expectTimeMatches();
    await staff.timesheets.update.mutate({
      entryId: onB.id,
      date: today,
      minutes: 50,
      clientId: f.a.id,
      billable: false,
    });
    await expectTimeMatches();
    await staff.timesheets.update.mutate({
      entryId: mine.id,
      date: outside,
      minutes: 90,
      clientId: f.a.id,
      billable: true,
    });
    await expectTimeMatches();
    await t.db
      .update(timesheetEntries)
      .set({ status: 'draft', billRate: null, costRate: null })
      .where(eq(timesheetEntries.id, approved.id));
    await expectTimeMatches();
    await staff.timesheets.delete.mutate({ entryId: internal.id });
    // A whole week approved at once, some of it turned non-billable on the way.
    await t.db
      .update(timesheetEntries)
      .set({ status: 'approved', billRate: 90000, costRate: 20000, billable: sql`minutes > 40` })
      .where(eq(timesheetEntries.orgId, f.org.id));
    await expectTimeMatches();
  });
});

describe('engagement periods in the services summary', () => {
  it('counts engagements, expected periods and those never started as the periods themselves say', async () => {
    const engaged = (clientId: string, startDate: string, endDate?: string) =>
      f.api.engagements.create.mutate({ clientId, serviceId: f.gst.id, startDate, endDate });
    const prevKey = prevMonthStart.slice(0, 7);
    const thisKey = monthStart.slice(0, 7);
    const a = await engaged(f.a.id, '2024-01-01');
    // Begins with this month: one period of the two.
    const b = await engaged(f.b.id, monthStart);
    // Ended before the range: no period, no engagement counted.
    await engaged(f.c.id, '2024-01-01', addDays(prevMonthStart, -1));
    const project = (clientId: string, clientServiceId: string, key: string, start: string) => ({
      orgId: f.org.id,
      clientId,
      serviceId: f.gst.id,
      clientServiceId,
      name: `GST ${key}`,
      periodKey: key,
      periodStart: start,
      dueDate: addDays(start, 20),
    });
    const [archived] = await t.db
      .insert(projects)
      .values([
        project(f.a.id, a.id, prevKey, prevMonthStart),
        // Made for a period before the engagement began: not one it calls for.
        project(f.b.id, b.id, prevKey, prevMonthStart),
      ])
      .returning();
    if (!archived) throw new Error('projects not made');
    // An archived project still means the period's work was started.
    await t.db.update(projects).set({ archivedAt: new Date() }).where(eq(projects.id, archived.id));
    const check = async (want: { engagements: number; expected: number; notStarted: number }) => {
      const r = await f.api.reports.servicesSummary.query(period);
      expect(r.rows.find((x) => x.id === f.gst.id)).toMatchObject(want);
      const listed = await f.api.reports.notStarted.query({ ...period, serviceId: f.gst.id });
      expect(listed.total).toBe(want.notStarted);
    };
    // Alpha: two periods, last month's started; Beta: this month only, not started.
    await check({ engagements: 2, expected: 3, notStarted: 2 });
    await t.db.insert(projects).values(project(f.a.id, a.id, thisKey, monthStart));
    await check({ engagements: 2, expected: 3, notStarted: 1 });
    // Alpha ends with last month: this month is no longer called for, and its project no longer counts.
    await f.api.engagements.end.mutate({ engagementId: a.id, endDate: addDays(monthStart, -1) });
    await check({ engagements: 2, expected: 2, notStarted: 1 });
    // Beta's start moves back a month: the project made for last month now counts.
    await t.db.update(clientServices).set({ startDate: prevMonthStart }).where(eq(clientServices.id, b.id));
    await check({ engagements: 2, expected: 3, notStarted: 1 });
    await f.api.clients.archive.mutate({ clientId: f.b.id });
    await check({ engagements: 1, expected: 1, notStarted: 0 });
    // Removing an engagement unlinks its projects: nothing of Alpha's is expected or started.
    await f.api.engagements.delete.mutate({ engagementId: a.id });
    await check({ engagements: 0, expected: 0, notStarted: 0 });
  });
});
