import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const nextYear = new Date().getUTCFullYear() + 1;
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

describe('leave.availability', () => {
  it("answers each member's free minutes on a day: leave, half a day, a holiday; other firms' ids are ignored", async () => {
    const firm = await t.seedFirm('Capacity & Co');
    const other = await t.seedFirm('Elsewhere');
    await t.db
      .update(roles)
      .set({ permissions: ['leaves.view', 'leaves.create'] })
      .where(eq(roles.id, firm.roles.staff.id));
    const admin = t.client(firm.owner.token);
    const staff = t.client(firm.staff.token);
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Annual leave',
      unit: 'half_day',
      allowance: 20,
    });
    await admin.leave.setup.allocate.mutate({
      memberId: firm.staff.id,
      leaveTypeId: typeId,
      year: nextYear,
      amount: 20,
    });
    const mon = monday(nextYear, 3);
    await admin.leave.holidays.create.mutate({ date: plus(mon, 2), name: 'Founders day' });
    const full = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: plus(mon, 1),
      endDate: plus(mon, 1),
    });
    const half = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: plus(mon, 3),
      endDate: plus(mon, 3),
      part: 'first_half',
    });
    // Pending leave takes nothing out of the day.
    expect(
      (await admin.leave.availability.query({ day: plus(mon, 1) })).find((m) => m.memberId === firm.staff.id),
    ).toMatchObject({ minutes: 480, away: false, absence: null });
    await admin.leave.requests.decide.mutate({ requestId: full.id, approve: true });
    await admin.leave.requests.decide.mutate({ requestId: half.id, approve: true });

    const on = async (day: string) =>
      (await admin.leave.availability.query({ day })).map((m) => [m.name, m.minutes, m.away, m.absence]);
    expect(await on(mon)).toEqual([
      ['Olivia Owner', 480, false, null],
      ['Sam Staff', 480, false, null],
    ]);
    expect(await on(plus(mon, 1))).toEqual([
      ['Olivia Owner', 480, false, null],
      ['Sam Staff', 0, true, { kind: 'leave', name: 'Annual leave' }],
    ]);
    expect(await on(plus(mon, 2))).toEqual([
      ['Olivia Owner', 0, true, { kind: 'holiday', name: 'Founders day' }],
      ['Sam Staff', 0, true, { kind: 'holiday', name: 'Founders day' }],
    ]);
    expect(await on(plus(mon, 3))).toEqual([
      ['Olivia Owner', 480, false, null],
      ['Sam Staff', 240, false, { kind: 'leave', name: 'Annual leave' }],
    ]);
    // A weekend is no one's working day, and no one is "away" on it.
    expect(await on(plus(mon, 5))).toEqual([
      ['Olivia Owner', 0, false, null],
      ['Sam Staff', 0, false, null],
    ]);

    // Only the firm's own members answer; another firm's ids are left out, never an error.
    const named = await admin.leave.availability.query({
      day: plus(mon, 1),
      memberIds: [other.staff.id, other.owner.id, firm.staff.id],
    });
    expect(named.map((m) => m.memberId)).toEqual([firm.staff.id]);
    expect(await admin.leave.availability.query({ day: plus(mon, 1), memberIds: [other.owner.id] })).toEqual(
      [],
    );

    // Seeing who is free goes with seeing tasks; fuzz never reaches the database.
    await expect(staff.leave.availability.query({ day: mon })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(admin.leave.availability.query({ day: '2026-02-30' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
    await expect(
      admin.leave.availability.query({ day: mon, memberIds: ['x\u0000'] } as never),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });
});
