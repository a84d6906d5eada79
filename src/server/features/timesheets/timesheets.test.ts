import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn, weekStartOf } from '../../../domain/days';
import { timesheetEntries, timesheetRates } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, putOnTeam, seedClient } from '../../test/fixtures';
import { codeAndMessageOf as codeOf } from '../../test/outcome';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const W1 = '2026-03-02';
const W2 = '2026-03-09';

async function firm(name: string) {
  const f = await seedFirmWithRoles(t, name);
  const client = await seedClient(t, f.org.id, { name: `${name} client` });
  // The seeded Staff role sees assigned clients only: put both members on the client's team.
  await putOnTeam(t, f.org.id, client.id, f.staff.id);
  return { ...f, client };
}

describe('timesheet entries', () => {
  it('records time typed as 1:30 or 1.5, sums the grid, and refuses what it must', async () => {
    const f = await firm('Entries & Co');
    const me = t.client(f.staff.token);
    await me.timesheets.setCell.mutate({ date: W1, minutes: '1:30', clientId: f.client.id });
    await me.timesheets.setCell.mutate({ date: addDays(W1, 1), minutes: '1.5', clientId: f.client.id });
    // The same cell again replaces, it does not add.
    await me.timesheets.setCell.mutate({ date: W1, minutes: '2', clientId: f.client.id });
    const { id } = await me.timesheets.create.mutate({ date: W1, minutes: 30, note: 'Training' });

    const week = await me.timesheets.myWeek.query({ weekStart: W1 });
    expect(week.entries.map((e) => [e.date, e.minutes, e.clientName, e.billable])).toEqual([
      [W1, 120, 'Entries & Co client', true],
      [W1, 30, null, false],
      [addDays(W1, 1), 90, 'Entries & Co client', true],
    ]);
    expect(week.days.map((d) => d.expected)).toEqual([480, 480, 480, 480, 480, 0, 0]);
    // A holiday on the Wednesday: nobody is expected to work it.
    await t.client(f.owner.token).leave.holidays.create.mutate({ date: addDays(W1, 2), name: 'Diwali' });
    const withHoliday = await me.timesheets.myWeek.query({ weekStart: W1 });
    expect(withHoliday.days.map((d) => d.expected)).toEqual([480, 480, 0, 480, 480, 0, 0]);

    expect(await codeOf(me.timesheets.create.mutate({ date: W1, minutes: '13', note: 'x' }))).toBe(
      'BAD_REQUEST: An entry cannot be longer than 12 hours',
    );
    expect(await codeOf(me.timesheets.create.mutate({ date: W1, minutes: '1:75', note: 'x' }))).toBe(
      'BAD_REQUEST: Type hours like 1:30, 1.5 or 90m',
    );
    expect(await codeOf(me.timesheets.create.mutate({ date: W1, minutes: 60 }))).toBe(
      'BAD_REQUEST: Add a note when the time is for neither a client nor a task',
    );
    expect(
      await codeOf(me.timesheets.create.mutate({ date: '3026-01-01', minutes: 60, note: 'x' })),
    ).toContain('BAD_REQUEST: Choose a date between the years 2000 and 2099');
    expect(await codeOf(me.timesheets.create.mutate({ date: W1, minutes: 60, note: 'a\u0000' }))).toContain(
      'BAD_REQUEST',
    );

    await me.timesheets.delete.mutate({ entryId: id });
    const log = await logRows(t, f.org.id, id);
    expect(log.map((r) => r.action)).toEqual(['timesheet.create', 'timesheet.delete']);
  });

  it("keeps another member's entries out of reach unless the caller approves timesheets", async () => {
    const f = await firm('Private & Co');
    const { id } = await t
      .client(f.manager.token)
      .timesheets.create.mutate({ date: W1, minutes: 60, note: 'x' });
    expect(await codeOf(t.client(f.staff.token).timesheets.delete.mutate({ entryId: id }))).toBe(
      'NOT_FOUND: Time entry not found',
    );
    expect(await codeOf(t.client(f.staff.token).timesheets.teamWeek.query({ weekStart: W1 }))).toMatch(
      /^FORBIDDEN/,
    );
  });
});

describe('submitting and approving weeks', () => {
  it('submits, approves with frozen rates, and a rejection reopens that week only', async () => {
    const f = await firm('Weeks & Co');
    const staff = t.client(f.staff.token);
    const manager = t.client(f.manager.token);
    await t.db.insert(timesheetRates).values([
      { orgId: f.org.id, kind: 'client', refId: f.client.id, rate: 5000 },
      { orgId: f.org.id, kind: 'cost', refId: f.staff.id, rate: 2000 },
    ]);
    for (const week of [W1, W2]) {
      await staff.timesheets.setCell.mutate({ date: week, minutes: '3', clientId: f.client.id });
      await staff.timesheets.submitWeek.mutate({ weekStart: week });
    }
    // Submitted: closed to its member.
    expect(
      await codeOf(staff.timesheets.setCell.mutate({ date: W1, minutes: '1', clientId: f.client.id })),
    ).toBe('PRECONDITION_FAILED: This week has been submitted: it can change again if it is sent back');

    const team = await manager.timesheets.teamWeek.query({ weekStart: W1 });
    const row = team.members.find((m) => m.id === f.staff.id);
    expect(row?.status).toBe('submitted');
    expect(row?.days[0]).toMatchObject({ date: W1, minutes: 180, expected: 480, flags: [] });
    expect(team.members.find((m) => m.id === f.manager.id)?.status).toBe('open');

    await manager.timesheets.approve.mutate({ weekStart: W1, memberIds: [f.staff.id] });
    await manager.timesheets.approve.mutate({ weekStart: W2, memberIds: [f.staff.id] });
    const rows = await t.db.select().from(timesheetEntries).where(eq(timesheetEntries.memberId, f.staff.id));
    expect(rows.map((r) => [r.status, r.billRate, r.costRate])).toEqual([
      ['approved', 5000, 2000],
      ['approved', 5000, 2000],
    ]);

    await manager.timesheets.reject.mutate({
      weekStart: W1,
      memberId: f.staff.id,
      comment: 'Add the Friday',
    });
    const w1 = await staff.timesheets.myWeek.query({ weekStart: W1 });
    const w2 = await staff.timesheets.myWeek.query({ weekStart: W2 });
    expect([w1.status, w1.comment, w2.status]).toEqual(['rejected', 'Add the Friday', 'approved']);
    // The reopened week takes changes again; the later one does not.
    await staff.timesheets.setCell.mutate({ date: addDays(W1, 4), minutes: '1:30', clientId: f.client.id });
    expect(
      await codeOf(
        staff.timesheets.setCell.mutate({ date: addDays(W2, 4), minutes: '1', clientId: f.client.id }),
      ),
    ).toBe('PRECONDITION_FAILED: This week has been approved');
    await staff.timesheets.submitWeek.mutate({ weekStart: W1 });
    expect((await staff.timesheets.myWeek.query({ weekStart: W1 })).status).toBe('submitted');
  });

  it('reminds only those who have not submitted', async () => {
    const f = await firm('Remind & Co');
    await t.client(f.staff.token).timesheets.submitWeek.mutate({ weekStart: W1 });
    const { reminded } = await t.client(f.manager.token).timesheets.remind.mutate({ weekStart: W1 });
    expect(reminded).toBe(3); // owner, admin, manager
  });
});

describe('the lock date', () => {
  it('refuses changes on locked days after the grace days, except to an approver, who is logged', async () => {
    const f = await firm('Lock & Co');
    const today = todayIn('UTC');
    const lockDate = addDays(today, -10);
    const day = weekStartOf(addDays(lockDate, -7));
    const staff = t.client(f.staff.token);
    const { id } = await staff.timesheets.create.mutate({ date: day, minutes: 60, clientId: f.client.id });

    await t.client(f.owner.token).timesheets.setLock.mutate({ lockDate, graceDays: 20 });
    // Within the grace days: still open.
    await staff.timesheets.update.mutate({ entryId: id, date: day, minutes: 90, clientId: f.client.id });
    await t.client(f.owner.token).timesheets.setLock.mutate({ lockDate, graceDays: 2 });
    const refused = await codeOf(
      staff.timesheets.update.mutate({ entryId: id, date: day, minutes: 30, clientId: f.client.id }),
    );
    expect(refused).toMatch(/^PRECONDITION_FAILED: Time on .+ is locked: the firm has closed that period$/);
    // The day as the firm writes it, not as the database stores it.
    expect(refused).not.toContain(day);
    expect(
      await codeOf(t.client(f.staff.token).timesheets.setLock.mutate({ lockDate: null, graceDays: 0 })),
    ).toMatch(/^FORBIDDEN/);

    await t
      .client(f.manager.token)
      .timesheets.update.mutate({ entryId: id, date: day, minutes: 45, clientId: f.client.id });
    const log = await logRows(t, f.org.id, id);
    expect(log.at(-1)).toMatchObject({ action: 'timesheet.update' });
    expect(log.at(-1)?.changes).toEqual({ minutes: { from: 90, to: 45 } });
  });
});
