import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormatter } from '../../../domain/format';
import { leaveLedger, leaveRequests, leaveRuns, notifications, roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { availableMinutes } from '.';
import { runLeaveForOrg } from './jobs';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const nextYear = new Date().getUTCFullYear() + 1;
// Monday 2 March … of next year is not a fixed weekday, so tests pick dates by weekday.
function monday(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month - 1, 1));
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const plus = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

async function leaveFirm(name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(roles)
    .set({ permissions: ['leaves.view', 'leaves.create'] })
    .where(eq(roles.id, firm.roles.staff.id));
  return { firm, admin: t.client(firm.owner.token), staff: t.client(firm.staff.token) };
}

describe('leave', () => {
  it('applies, previews the deduction, refuses overlaps, is approved with a comment and drops the balance', async () => {
    const { firm, admin, staff } = await leaveFirm('Leave & Co');
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Annual leave',
      unit: 'half_day',
      allowance: 20,
      carryForwardCap: 5,
      carryForwardExpiryMonths: 3,
      maxConsecutiveDays: 15,
    });
    const mon = monday(nextYear, 3);
    await admin.leave.holidays.create.mutate({ date: plus(mon, 2), name: 'Founders day' });
    await admin.leave.setup.updateMember.mutate({
      memberId: firm.staff.id,
      managerId: firm.owner.id,
      office: null,
      workingDays: null,
      minutesPerDay: null,
    });
    await admin.leave.setup.allocate.mutate({
      memberId: firm.staff.id,
      leaveTypeId: typeId,
      year: nextYear,
      amount: 20,
    });

    // Mon–Mon over a weekend with a Wednesday holiday: 5 working days.
    const input = { leaveTypeId: typeId, startDate: mon, endDate: plus(mon, 7), reason: 'Family visit' };
    const preview = await staff.leave.requests.preview.query(input);
    expect(preview).toMatchObject({ amount: 500, balance: 2000, after: 1500, needsSecondLevel: false });
    expect(preview.days.filter((d) => d.note === 'Holiday').map((d) => d.date)).toEqual([plus(mon, 2)]);

    const { id } = await staff.leave.requests.submit.mutate(input);
    const overlap = await staff.leave.requests.submit
      .mutate({ ...input, startDate: plus(mon, 7), endDate: plus(mon, 8) })
      .catch((e: { data?: { code?: string }; message: string }) => e);
    expect(overlap).toMatchObject({ data: { code: 'CONFLICT' } });
    expect((overlap as Error).message).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await expect(
      staff.leave.requests.submit.mutate({ ...input, startDate: plus(mon, 14), endDate: plus(mon, 14 + 40) }),
    ).rejects.toMatchObject({ message: 'Annual leave is at most 15 days in a row' });

    const approverNote = await t.db
      .select({ kind: notifications.kind, title: notifications.title })
      .from(notifications)
      .where(eq(notifications.memberId, firm.owner.id));
    expect(approverNote.map((n) => n.kind)).toEqual(['leave.requested']);

    const pending = await admin.leave.requests.team.query({ status: 'pending' });
    expect(pending.rows.map((r) => [r.id, r.memberName, r.amount])).toEqual([[id, 'Sam Staff', 500]]);
    await expect(staff.leave.requests.decide.mutate({ requestId: id, approve: true })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    expect(
      await admin.leave.requests.decide.mutate({ requestId: id, approve: true, comment: 'Enjoy' }),
    ).toEqual({
      id,
      status: 'approved',
    });

    const mine = await staff.leave.requests.mine.query({ year: nextYear });
    expect(mine.balances).toEqual([
      expect.objectContaining({ name: 'Annual leave', balance: 1500, taken: 500, pending: 0 }),
    ]);
    expect(mine.requests[0]).toMatchObject({
      status: 'approved',
      decisionComment: 'Enjoy',
      cancel: 'return-days',
    });
    const decided = await t.db
      .select({ title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.memberId, firm.staff.id), eq(notifications.kind, 'leave.decided')));
    // The days as the firm writes dates (no country: en-GB, "9 – 16 Mar 2027"), never "2027-03-09 to …".
    const firmDates = createFormatter({ country: null, timeZone: 'UTC', currency: 'USD' });
    expect(decided).toEqual([
      {
        title: `Your 5 days of Annual leave (${firmDates.dateRange(mon, plus(mon, 7))}) is approved`,
        body: 'Enjoy',
      },
    ]);
    expect(decided[0]?.title).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    // Capacity: the leave and the holiday take the days out.
    const minutes = await availableMinutes(
      t.db,
      firm.org.id,
      [firm.staff.id, firm.owner.id],
      mon,
      plus(mon, 2),
    );
    expect(minutes.get(firm.staff.id)).toEqual({ [mon]: 0, [plus(mon, 1)]: 0, [plus(mon, 2)]: 0 });
    expect(minutes.get(firm.owner.id)).toEqual({ [mon]: 480, [plus(mon, 1)]: 480, [plus(mon, 2)]: 0 });

    // A future approved leave is cancelled with a reversal.
    await staff.leave.requests.cancel.mutate({ requestId: id });
    expect((await staff.leave.requests.mine.query({ year: nextYear })).balances[0]).toMatchObject({
      balance: 2000,
    });
    const kinds = await t.db
      .select({ kind: leaveLedger.kind, amount: leaveLedger.amount })
      .from(leaveLedger)
      .where(eq(leaveLedger.orgId, firm.org.id));
    expect(kinds.map((k) => `${k.kind}:${k.amount}`).sort()).toEqual([
      'allocation:2000',
      'reversal:500',
      'taken:-500',
    ]);

    const actions = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, firm.org.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'leaveType.create',
        'holiday.create',
        'leave.allocate',
        'leave.apply',
        'leave.approve',
        'leave.cancel',
      ]),
    );
  });

  it('offers Cancel only where the rules allow it: pending, or approved and yet to start', async () => {
    const { firm, admin, staff } = await leaveFirm('Cancel Rules');
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Casual',
      unit: 'day',
      allowance: 10,
      allowNegative: true,
    });
    await admin.leave.setup.updateMember.mutate({
      memberId: firm.staff.id,
      managerId: firm.owner.id,
      office: null,
      workingDays: null,
      minutesPerDay: null,
    });
    const mon = monday(nextYear, 5);
    const { id: pendingId } = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: mon,
      endDate: mon,
    });
    const { id: pastId } = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: plus(mon, 7),
      endDate: plus(mon, 7),
    });
    await admin.leave.requests.decide.mutate({ requestId: pastId, approve: true });
    // Taken last year: approved and over.
    const lastYear = nextYear - 2;
    const past = monday(lastYear, 5);
    await t.db
      .update(leaveRequests)
      .set({ startDate: past, endDate: past })
      .where(eq(leaveRequests.id, pastId));

    const upcoming = await staff.leave.requests.mine.query({ year: nextYear });
    expect(upcoming.requests.map((r) => [r.id, r.status, r.cancel])).toEqual([
      [pendingId, 'pending', 'withdraw'],
    ]);
    const history = await staff.leave.requests.mine.query({ year: lastYear });
    expect(history.requests.map((r) => [r.id, r.status, r.cancel])).toEqual([[pastId, 'approved', null]]);
    // The server refuses what the list does not offer.
    await expect(staff.leave.requests.cancel.mutate({ requestId: pastId })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    await staff.leave.requests.cancel.mutate({ requestId: pendingId });
    const after = await staff.leave.requests.mine.query({ year: nextYear });
    expect(after.requests.map((r) => [r.status, r.cancel])).toEqual([['cancelled', null]]);
  });

  it('refuses a request beyond the balance unless the type allows a negative balance; half days and hours', async () => {
    const { admin, staff } = await leaveFirm('Balance & Co');
    const { id: strict } = await admin.leave.types.create.mutate({
      name: 'Casual',
      unit: 'half_day',
      allowance: 0,
      carryForwardCap: null,
      carryForwardExpiryMonths: null,
      maxConsecutiveDays: null,
    });
    const { id: loose } = await admin.leave.types.create.mutate({
      name: 'Comp off',
      unit: 'hour',
      allowance: 0,
      allowNegative: true,
      carryForwardCap: null,
      carryForwardExpiryMonths: null,
      maxConsecutiveDays: null,
    });
    const mon = monday(nextYear, 5);
    await expect(
      staff.leave.requests.submit.mutate({
        leaveTypeId: strict,
        startDate: mon,
        endDate: mon,
        part: 'first_half',
      }),
    ).rejects.toMatchObject({ message: 'Not enough balance: 0 days left, this takes 0.5 days' });
    const r = await staff.leave.requests.submit.mutate({
      leaveTypeId: loose,
      startDate: mon,
      endDate: mon,
      part: 'hours',
      minutes: 90,
    });
    expect(r.amount).toBe(150);
    await expect(
      staff.leave.requests.submit.mutate({
        leaveTypeId: loose,
        startDate: mon,
        endDate: mon,
        part: 'first_half',
      }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
  });

  it('needs a second approver for long requests when the firm sets one', async () => {
    const { firm, admin, staff } = await leaveFirm('Levels & Co');
    await admin.leave.setup.update.mutate({
      workingDays: [1, 2, 3, 4, 5],
      minutesPerDay: 480,
      offices: [],
      secondLevelAfterDays: 3,
      awayWarnPercent: 30,
    });
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Annual',
      allowance: 20,
      allowNegative: true,
      carryForwardCap: null,
      carryForwardExpiryMonths: null,
      maxConsecutiveDays: null,
    });
    const mon = monday(nextYear, 6);
    const { id } = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: mon,
      endDate: plus(mon, 4),
    });
    expect(await admin.leave.requests.decide.mutate({ requestId: id, approve: true })).toEqual({
      id,
      status: 'pending',
    });
    // The same approver cannot give the second approval.
    await expect(admin.leave.requests.decide.mutate({ requestId: id, approve: true })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect(firm.owner.id).toBeTruthy();
  });

  it('accrues, closes the year and carries up to the cap, once however often it runs', async () => {
    const { firm, admin } = await leaveFirm('Accrual & Co');
    const { id: monthly } = await admin.leave.types.create.mutate({
      name: 'Earned',
      accrual: 'monthly',
      rounding: 'half',
      allowance: 20,
      carryForwardCap: 3,
      carryForwardExpiryMonths: 3,
      maxConsecutiveDays: null,
    });
    const last = nextYear - 1;
    for (let i = 0; i < 2; i++) await runLeaveForOrg(t.db, firm.org.id, `${last}-12-15`);
    const sum = async (year: number, memberId: string) =>
      (await admin.leave.setup.balances.query({ year, memberIds: [memberId] })).find(
        (b) => b.leaveTypeId === monthly,
      )?.balance ?? 0;
    // Members created now join this year: only months from their joining count.
    const joinedMonth = new Date().getUTCMonth() + 1;
    const expected = Array.from({ length: 12 }, (_, i) => i + 1)
      .filter((m) => last > new Date().getUTCFullYear() || m >= joinedMonth)
      .reduce(
        (s, m) =>
          s + (m <= 12 ? ([150, 200, 150, 150, 200, 150, 150, 200, 150, 150, 200, 150][m - 1] ?? 0) : 0),
        0,
      );
    expect(await sum(last, firm.staff.id)).toBe(expected);
    for (let i = 0; i < 2; i++) await runLeaveForOrg(t.db, firm.org.id, `${nextYear}-04-02`);
    // Carried min(balance, 3 days), unused by April: lapsed; Jan–Apr accrued.
    expect(await sum(last, firm.staff.id)).toBe(0);
    expect(await sum(nextYear, firm.staff.id)).toBe(150 + 200 + 150 + 150);
    const runs = await t.db
      .select({ status: leaveRuns.status })
      .from(leaveRuns)
      .where(eq(leaveRuns.orgId, firm.org.id));
    expect(runs.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('answers NOT_FOUND for another firm’s records', async () => {
    const a = await leaveFirm('A & Co');
    const b = await leaveFirm('B & Co');
    const { id: typeB } = await b.admin.leave.types.create.mutate({
      name: 'Annual',
      allowance: 10,
      carryForwardCap: null,
      carryForwardExpiryMonths: null,
      maxConsecutiveDays: null,
    });
    const { id: holidayB } = await b.admin.leave.holidays.create.mutate({
      date: `${nextYear}-01-26`,
      name: 'Day',
    });
    const req = await b.staff.leave.requests.submit
      .mutate({ leaveTypeId: typeB, startDate: monday(nextYear, 2), endDate: monday(nextYear, 2) })
      .catch(() => null);
    await expect(a.admin.leave.holidays.delete.mutate({ holidayId: holidayB })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(a.admin.leave.types.archive.mutate({ leaveTypeId: typeB })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      a.staff.leave.requests.submit.mutate({
        leaveTypeId: typeB,
        startDate: monday(nextYear, 2),
        endDate: monday(nextYear, 2),
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await expect(
      a.admin.leave.setup.allocate.mutate({
        memberId: b.firm.staff.id,
        leaveTypeId: typeB,
        year: nextYear,
        amount: 1,
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    expect(req).toBeNull();
  });
});
