import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../domain/days';
import { orgs, roles } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The first Monday at least two days after today, so the leave starts within the coming fortnight. */
function nextMonday(today: string): string {
  let day = addDays(today, 2);
  while (new Date(`${day}T00:00:00Z`).getUTCDay() !== 1) day = addDays(day, 1);
  return day;
}

describe('dashboard.dueWhileAway', () => {
  it("lists the member's open tasks due during approved leave starting soon, and nothing otherwise", async () => {
    const firm = await t.seedFirm('Away & Co');
    await t.db
      .update(roles)
      .set({ permissions: ['tasks.view', 'leaves.view', 'leaves.create'] })
      .where(eq(roles.id, firm.roles.staff.id));
    const [org] = await t.db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, firm.org.id));
    const admin = t.client(firm.owner.token);
    const staff = t.client(firm.staff.token);
    const year = Number(nextMonday(todayIn(org?.timeZone ?? 'UTC')).slice(0, 4));
    const { id: typeId } = await admin.leave.types.create.mutate({
      name: 'Annual leave',
      unit: 'day',
      allowance: 20,
    });
    for (const y of new Set([year, year - 1, year + 1])) {
      await admin.leave.setup.allocate.mutate({
        memberId: firm.staff.id,
        leaveTypeId: typeId,
        year: y,
        amount: 20,
      });
    }
    const start = nextMonday(todayIn(org?.timeZone ?? 'UTC'));
    const end = addDays(start, 2);

    const task = (title: string, dueDate: string, assigneeIds = [firm.staff.id], status?: 'COMPLETED') =>
      admin.tasks.create.mutate({ title, dueDate, assigneeIds, ...(status ? { status } : {}) });
    await task('Before the leave', addDays(start, -1));
    await task('VAT return', start);
    await task('Payroll run', end);
    await task('Already done', addDays(start, 1), [firm.staff.id], 'COMPLETED');
    await task("Olivia's own", start, [firm.owner.id]);
    await task('After the leave', addDays(end, 1));

    // Nothing before any leave is approved (a pending request is not yet "away").
    const request = await staff.leave.requests.submit.mutate({
      leaveTypeId: typeId,
      startDate: start,
      endDate: end,
    });
    expect(await staff.dashboard.dueWhileAway.query()).toBeNull();
    await admin.leave.requests.decide.mutate({ requestId: request.id, approve: true });

    const away = await staff.dashboard.dueWhileAway.query();
    expect(
      away?.map((l) => [l.typeName, l.startDate, l.endDate, l.tasks.map((x) => [x.title, x.dueDate])]),
    ).toEqual([
      [
        'Annual leave',
        start,
        end,
        [
          ['VAT return', start],
          ['Payroll run', end],
        ],
      ],
    ]);
    // The owner has no leave: no card.
    expect(await admin.dashboard.dueWhileAway.query()).toBeNull();
    // Without the tasks right there is nothing to list.
    await t.db
      .update(roles)
      .set({ permissions: ['leaves.view'] })
      .where(eq(roles.id, firm.roles.staff.id));
    expect(await staff.dashboard.dueWhileAway.query()).toBeNull();
  });
});
