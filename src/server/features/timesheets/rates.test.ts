import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RATE } from '../../../domain/timesheet-rates';
import { systemLog, timesheetEntries } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { page, putOnTeam, seedClient } from '../../test/fixtures';
import { codeAndMessageOf as codeOf } from '../../test/outcome';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const W1 = '2026-03-02';

/** A firm with a client on Staff's team, a task of that client and a service. */
async function firm(name: string) {
  const f = await seedFirmWithRoles(t, name);
  const client = await seedClient(t, f.org.id, { name: `${name} client` });
  await putOnTeam(t, f.org.id, client.id, f.staff.id);
  const owner = t.client(f.owner.token);
  const task = await owner.tasks.create.mutate({ title: `${name} audit`, clientId: client.id });
  const service = await owner.services.create.mutate({
    name: `${name} GST`,
    code: `${name.slice(0, 3).toUpperCase()}-GST`,
    frequency: 'monthly',
  });
  return { ...f, client, task, service, api: owner };
}

/** Every key of an answer, however deep. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object' && !(value instanceof Date))
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}
const MONEY_KEY = /rate|money|amount|cost|price|value/i;

describe('setting rates', () => {
  it('sets, lists and clears rates of members, clients, services and tasks, each change logged', async () => {
    const f = await firm('Rates & Co');
    const r = f.api.timesheets.rates;
    await r.set.mutate({ kind: 'cost', refId: f.staff.id, rate: 80000 });
    await r.set.mutate({ kind: 'member', refId: f.staff.id, rate: 150000 });
    await r.set.mutate({ kind: 'client', refId: f.client.id, rate: 200000 });
    await r.set.mutate({ kind: 'service', refId: f.service.id, rate: 250000 });
    await r.set.mutate({ kind: 'task', refId: f.task.id, rate: 300000 });
    // The same rate again changes nothing and logs nothing.
    await r.set.mutate({ kind: 'client', refId: f.client.id, rate: 200000 });
    await r.set.mutate({ kind: 'client', refId: f.client.id, rate: 210050 });

    const people = await r.members.query({ ...page, search: 'staff' });
    expect(people.rows.map((m) => [m.id, m.costRate, m.billRate])).toEqual([[f.staff.id, 80000, 150000]]);
    expect(people.total).toBe(1);
    const all = await r.members.query({ page: 1, pageSize: 2 });
    expect([all.rows.length, all.total]).toEqual([2, 4]);
    expect((await r.clients.query(page)).rows).toEqual([
      { id: f.client.id, name: 'Rates & Co client', code: expect.any(String), billRate: 210050 },
    ]);
    expect((await r.services.query({ ...page, search: 'gst' })).rows.map((s) => s.billRate)).toEqual([
      250000,
    ]);
    expect(await r.task.query({ taskId: f.task.id })).toEqual({ rate: 300000 });

    await r.set.mutate({ kind: 'task', refId: f.task.id, rate: null });
    expect(await r.task.query({ taskId: f.task.id })).toEqual({ rate: null });

    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary, changes: systemLog.changes })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'timesheet.rate')))
      .orderBy(systemLog.at);
    expect(log.map((l) => l.changes)).toEqual([
      { costRate: { from: null, to: 80000 } },
      { billRate: { from: null, to: 150000 } },
      { billRate: { from: null, to: 200000 } },
      { billRate: { from: null, to: 250000 } },
      { billRate: { from: null, to: 300000 } },
      { billRate: { from: 200000, to: 210050 } },
      { billRate: { from: 300000, to: null } },
    ]);
    expect(log[5]?.summary).toBe("Set Rates & Co client's billing rate to US$2,100.50 an hour");
    expect(log[6]?.summary).toBe("Cleared Rates & Co audit's billing rate (was US$3,000.00 an hour)");
  });

  it('refuses a rate that is negative, fractional or absurd, and callers without the right', async () => {
    const f = await firm('Bounds & Co');
    const set = (rate: unknown) =>
      codeOf(f.api.timesheets.rates.set.mutate({ kind: 'client', refId: f.client.id, rate: rate as number }));
    expect(await set(-1)).toBe('BAD_REQUEST: A rate cannot be negative');
    expect(await set(10.5)).toMatch(/^BAD_REQUEST: Give the rate/);
    expect(await set(MAX_RATE + 1)).toBe(
      'BAD_REQUEST: That rate is higher than any firm charges for an hour: check the amount',
    );
    expect(await set('100')).toMatch(/^BAD_REQUEST/);
    // A client the limited member may not see, and an id of nothing: NOT_FOUND either way.
    expect(
      await codeOf(f.api.timesheets.rates.set.mutate({ kind: 'service', refId: f.client.id, rate: 100 })),
    ).toBe('NOT_FOUND: Service not found');
    for (const who of [f.manager, f.staff]) {
      const api = t.client(who.token).timesheets.rates;
      expect(await codeOf(api.set.mutate({ kind: 'client', refId: f.client.id, rate: 1 }))).toMatch(
        /^FORBIDDEN/,
      );
      expect(await codeOf(api.members.query(page))).toMatch(/^FORBIDDEN/);
    }
  });
});

describe('rates frozen at approval, and money only for those with the right', () => {
  it('freezes the most specific rate on each entry, values the week, and strips money for others', async () => {
    const f = await firm('Freeze & Co');
    const r = f.api.timesheets.rates;
    await r.set.mutate({ kind: 'task', refId: f.task.id, rate: 9000 });
    await r.set.mutate({ kind: 'service', refId: f.service.id, rate: 7000 });
    await r.set.mutate({ kind: 'client', refId: f.client.id, rate: 5000 });
    await r.set.mutate({ kind: 'member', refId: f.staff.id, rate: 3000 });
    await r.set.mutate({ kind: 'cost', refId: f.staff.id, rate: 2000 });

    const staff = t.client(f.staff.token);
    const onTask = await staff.timesheets.create.mutate({
      date: W1,
      minutes: 60,
      taskId: f.task.id,
      serviceId: f.service.id,
    });
    const onService = await staff.timesheets.create.mutate({
      date: W1,
      minutes: 120,
      clientId: f.client.id,
      serviceId: f.service.id,
    });
    const onClient = await staff.timesheets.create.mutate({ date: W1, minutes: 30, clientId: f.client.id });
    const own = await staff.timesheets.create.mutate({
      date: W1,
      minutes: 60,
      note: 'Firm newsletter',
      billable: true,
    });
    const unbilled = await staff.timesheets.create.mutate({ date: W1, minutes: 30, note: 'Training' });
    await staff.timesheets.submitWeek.mutate({ weekStart: W1 });

    // Before approval: today's rates, as an estimate. Billable 1h×90 + 2h×70 + ½h×50 + 1h×30.
    const before = await f.api.timesheets.teamWeek.query({ weekStart: W1 });
    expect(before.members.find((m) => m.id === f.staff.id)?.money).toEqual({
      billable: 9000 + 14000 + 2500 + 3000,
      cost: 10000,
      estimate: true,
      unratedMinutes: 0,
    });

    await f.api.timesheets.approve.mutate({ weekStart: W1, memberIds: [f.staff.id] });
    const frozen = await t.db
      .select({ id: timesheetEntries.id, bill: timesheetEntries.billRate, cost: timesheetEntries.costRate })
      .from(timesheetEntries)
      .where(eq(timesheetEntries.memberId, f.staff.id));
    const rateOf = (id: string) => frozen.find((e) => e.id === id);
    expect([onTask, onService, onClient, own, unbilled].map((e) => rateOf(e.id))).toEqual([
      { id: onTask.id, bill: 9000, cost: 2000 },
      { id: onService.id, bill: 7000, cost: 2000 },
      { id: onClient.id, bill: 5000, cost: 2000 },
      { id: own.id, bill: 3000, cost: 2000 },
      { id: unbilled.id, bill: 3000, cost: 2000 },
    ]);

    // A later change of rate leaves approved time as it was billed.
    await r.set.mutate({ kind: 'task', refId: f.task.id, rate: 99000 });
    await r.set.mutate({ kind: 'cost', refId: f.staff.id, rate: null });
    const after = await f.api.timesheets.teamWeek.query({ weekStart: W1 });
    expect(after.members.find((m) => m.id === f.staff.id)?.money).toEqual({
      billable: 28500,
      cost: 10000,
      estimate: false,
      unratedMinutes: 0,
    });
    // The owner's own unrated billable time is counted as such.
    await f.api.timesheets.create.mutate({ date: W1, minutes: 45, note: 'Pitch', billable: true });
    const owner = (await f.api.timesheets.teamWeek.query({ weekStart: W1 })).members.find(
      (m) => m.id === f.owner.id,
    );
    expect(owner?.money).toEqual({ billable: 0, cost: 0, estimate: true, unratedMinutes: 45 });

    // The Manager approves timesheets but has no right to money: none of it in any answer.
    const manager = t.client(f.manager.token);
    const answers = [
      await manager.timesheets.teamWeek.query({ weekStart: W1 }),
      await manager.timesheets.myWeek.query({ weekStart: W1 }),
      await manager.timesheets.create.mutate({ date: W1, minutes: 15, note: 'Reading' }),
      await staff.timesheets.myWeek.query({ weekStart: W1 }),
      await staff.timesheets.rowOptions.query({ clientId: f.client.id }),
      await staff.timesheets.timer.current.query(),
    ];
    const leaked = [...keysOf(answers)].filter((k) => MONEY_KEY.test(k));
    expect(leaked).toEqual([]);
    expect(keysOf(answers).has('billable')).toBe(true); // the scan does see entries' fields
  });
});
