import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/days';
import { OWN_WEEK_REFUSED } from '../../../domain/timesheet-approval';
import { leaveRequests, leaveTypes, timesheetEntries } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, putOnTeam, seedClient } from '../../test/fixtures';
import { codeAndMessageOf as codeOf } from '../../test/outcome';
import { seedFirmWithRoles } from '../../test/seeded-firm';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const W = '2026-03-02'; // a Monday

async function firm(name: string) {
  const f = await seedFirmWithRoles(t, name);
  const client = await seedClient(t, f.org.id, { name: `${name} client` });
  await putOnTeam(t, f.org.id, client.id, f.staff.id);
  return { ...f, client };
}

/** Each of these members logs an hour on the Monday and submits the week. */
async function submitted(_f: Awaited<ReturnType<typeof firm>>, who: { token: string }[]) {
  for (const m of who) {
    const me = t.client(m.token);
    await me.timesheets.create.mutate({ date: W, minutes: 60, note: 'Work' });
    await me.timesheets.submitWeek.mutate({ weekStart: W });
  }
}

describe('who approves a week', () => {
  it('refuses one’s own week, and keeps approvers’ weeks for the approvers’ approver (the owner if none is named)', async () => {
    const f = await firm('Approvers & Co');
    await submitted(f, [f.staff, f.manager, f.admin, f.owner]);
    const manager = t.client(f.manager.token);
    const admin = t.client(f.admin.token);
    const owner = t.client(f.owner.token);

    // Nobody approves their own time.
    expect(await codeOf(manager.timesheets.approve.mutate({ weekStart: W, memberIds: [f.manager.id] }))).toBe(
      `FORBIDDEN: ${OWN_WEEK_REFUSED}`,
    );
    expect(
      await codeOf(manager.timesheets.reject.mutate({ weekStart: W, memberId: f.manager.id, comment: 'x' })),
    ).toBe(`FORBIDDEN: ${OWN_WEEK_REFUSED}`);
    expect(await codeOf(owner.timesheets.approve.mutate({ weekStart: W, memberIds: [f.owner.id] }))).toBe(
      `FORBIDDEN: ${OWN_WEEK_REFUSED}`,
    );
    // A manager may not approve the owner's or another approver's week, even in a batch with a staff week.
    expect(
      await codeOf(manager.timesheets.approve.mutate({ weekStart: W, memberIds: [f.staff.id, f.owner.id] })),
    ).toMatch(/^FORBIDDEN: Olivia Owner approves timesheets/);
    expect(await codeOf(manager.timesheets.approve.mutate({ weekStart: W, memberIds: [f.admin.id] }))).toBe(
      'FORBIDDEN: Ada Admin approves timesheets, so the owner decides their week',
    );
    const weeks = await t.db.select().from(timesheetEntries).where(eq(timesheetEntries.orgId, f.org.id));
    expect(weeks.every((e) => e.status === 'submitted')).toBe(true);

    // None named: the owner decides the approvers' weeks; the owner's own waits for a named approver.
    await owner.timesheets.approve.mutate({ weekStart: W, memberIds: [f.manager.id] });
    expect(await codeOf(admin.timesheets.approve.mutate({ weekStart: W, memberIds: [f.owner.id] }))).toMatch(
      /^FORBIDDEN: Olivia Owner approves timesheets, so their week needs the approvers' approver/,
    );
    const ownerRow = (await manager.timesheets.teamWeek.query({ weekStart: W })).members.find(
      (m) => m.id === f.owner.id,
    );
    expect(ownerRow?.refusal).toMatch(/^Olivia Owner approves timesheets/);

    // The firm names the admin: the owner's week and the manager's are now the admin's to decide,
    // and the admin's own goes back to the owner.
    await owner.timesheets.setApprovalSettings.mutate({
      dailyLimitMinutes: '9:30',
      approversApproverId: f.admin.id,
    });
    expect(await codeOf(owner.timesheets.approve.mutate({ weekStart: W, memberIds: [f.staff.id] }))).toBe(
      'ok',
    );
    await admin.timesheets.approve.mutate({ weekStart: W, memberIds: [f.owner.id] });
    expect(await codeOf(manager.timesheets.approve.mutate({ weekStart: W, memberIds: [f.admin.id] }))).toBe(
      'FORBIDDEN: Ada Admin approves timesheets, so the owner decides their week',
    );
    await owner.timesheets.approve.mutate({ weekStart: W, memberIds: [f.admin.id] });
    const team = await manager.timesheets.teamWeek.query({ weekStart: W });
    expect(team.members.map((m) => [m.name, m.status])).toEqual([
      ['Ada Admin', 'approved'],
      ['Manu Manager', 'approved'],
      ['Olivia Owner', 'approved'],
      ['Sam Staff', 'approved'],
    ]);
    expect(team.dailyLimitMinutes).toBe(570);
    const log = await logRows(t, f.org.id, f.org.id);
    expect(log.map((r) => r.action)).toContain('timesheet.approvalSettings');
  });

  it('names only a member who approves, and only an editor of settings may', async () => {
    const f = await firm('Named & Co');
    const owner = t.client(f.owner.token);
    expect(
      await codeOf(
        owner.timesheets.setApprovalSettings.mutate({
          dailyLimitMinutes: 600,
          approversApproverId: f.staff.id,
        }),
      ),
    ).toBe('BAD_REQUEST: Sam Staff does not approve timesheets: choose someone whose role does');
    expect(
      await codeOf(
        t.client(f.manager.token).timesheets.setApprovalSettings.mutate({
          dailyLimitMinutes: 600,
          approversApproverId: null,
        }),
      ),
    ).toMatch(/^FORBIDDEN/);
    expect(
      await codeOf(
        owner.timesheets.setApprovalSettings.mutate({ dailyLimitMinutes: '30h', approversApproverId: null }),
      ),
    ).toMatch(/^BAD_REQUEST/);
    const settings = await owner.timesheets.approvalSettings.query();
    expect(settings.dailyLimitMinutes).toBe(600);
    expect(settings.candidates.map((c) => c.name)).toEqual(['Ada Admin', 'Manu Manager', 'Olivia Owner']);
  });
});

describe("changing someone else's time", () => {
  it('is for who may decide their week: a manager may correct a preparer, not the owner', async () => {
    const f = await firm('Edits & Co');
    const ownerEntry = await t
      .client(f.owner.token)
      .timesheets.create.mutate({ date: W, minutes: 60, note: 'x' });
    const staffEntry = await t
      .client(f.staff.token)
      .timesheets.create.mutate({ date: W, minutes: 60, clientId: f.client.id });
    const manager = t.client(f.manager.token);
    expect(
      await codeOf(
        manager.timesheets.update.mutate({ entryId: ownerEntry.id, date: W, minutes: 600, note: 'x' }),
      ),
    ).toMatch(/^FORBIDDEN: Olivia Owner approves timesheets/);
    expect(await codeOf(manager.timesheets.delete.mutate({ entryId: ownerEntry.id }))).toMatch(/^FORBIDDEN/);
    expect(
      await codeOf(
        manager.timesheets.update.mutate({
          entryId: staffEntry.id,
          date: W,
          minutes: 90,
          clientId: f.client.id,
        }),
      ),
    ).toBe('ok');
  });
});

describe('a week as its approver opens it', () => {
  it('shows the entries and flags long days, holidays, approved leave and weekends', async () => {
    const f = await firm('Flags & Co');
    const owner = t.client(f.owner.token);
    const staff = t.client(f.staff.token);
    await owner.leave.holidays.create.mutate({ date: addDays(W, 2), name: 'Holi' });
    const [type] = await t.db.insert(leaveTypes).values({ orgId: f.org.id, name: 'Sick leave' }).returning();
    if (!type) throw new Error('no leave type');
    await t.db.insert(leaveRequests).values({
      orgId: f.org.id,
      memberId: f.staff.id,
      leaveTypeId: type.id,
      startDate: addDays(W, 4),
      endDate: addDays(W, 4),
      amount: 100,
      status: 'approved',
    });
    await staff.timesheets.setCell.mutate({ date: W, minutes: '6', clientId: f.client.id });
    await staff.timesheets.setCell.mutate({ date: addDays(W, 1), minutes: '12', clientId: f.client.id });
    await staff.timesheets.create.mutate({ date: addDays(W, 1), minutes: '2', note: 'Filing night' });
    await staff.timesheets.setCell.mutate({ date: addDays(W, 2), minutes: '3', clientId: f.client.id });
    await staff.timesheets.setCell.mutate({ date: addDays(W, 4), minutes: '1', clientId: f.client.id });
    await staff.timesheets.setCell.mutate({ date: addDays(W, 5), minutes: '2', clientId: f.client.id });
    await staff.timesheets.submitWeek.mutate({ weekStart: W });

    const kinds = (days: { flags: { kind: string }[] }[]) => days.map((d) => d.flags.map((x) => x.kind));
    const expected = [[], ['overLimit'], ['holiday'], [], ['leave'], ['weekend'], []];
    const row = (await owner.timesheets.teamWeek.query({ weekStart: W })).members.find(
      (m) => m.id === f.staff.id,
    );
    expect(row && kinds(row.days)).toEqual(expected);
    expect(row?.days[1]?.flags[0]?.label).toBe("14:00 is over the firm's daily limit of 10:00");
    expect(row?.days[2]?.flags[0]?.label).toBe('Time logged on a holiday (Holi)');

    const week = await t
      .client(f.manager.token)
      .timesheets.memberWeek.query({ weekStart: W, memberId: f.staff.id });
    expect(week.member.name).toBe('Sam Staff');
    expect(week.status).toBe('submitted');
    expect(week.refusal).toBeNull();
    expect(kinds(week.days)).toEqual(expected);
    expect(week.entries.map((e) => [e.date, e.minutes, e.clientName ?? e.note])).toEqual([
      [W, 360, 'Flags & Co client'],
      [addDays(W, 1), 720, 'Flags & Co client'],
      [addDays(W, 1), 120, 'Filing night'],
      [addDays(W, 2), 180, 'Flags & Co client'],
      [addDays(W, 4), 60, 'Flags & Co client'],
      [addDays(W, 5), 120, 'Flags & Co client'],
    ]);
    // The member's own grid gets what the flags are made of, to flag a day as it is typed.
    const mine = await staff.timesheets.myWeek.query({ weekStart: W });
    expect(mine.dailyLimitMinutes).toBe(600);
    expect(mine.days.map((d) => [d.working, d.absence?.kind ?? null])).toEqual([
      [true, null],
      [true, null],
      [true, 'holiday'],
      [true, null],
      [true, 'leave'],
      [false, null],
      [false, null],
    ]);
    // At a 14-hour limit the long day is ordinary.
    await owner.timesheets.setApprovalSettings.mutate({
      dailyLimitMinutes: 14 * 60,
      approversApproverId: null,
    });
    const raised = await owner.timesheets.memberWeek.query({ weekStart: W, memberId: f.staff.id });
    expect(kinds(raised.days)[1]).toEqual([]);
    // Staff cannot open anyone's week.
    expect(await codeOf(staff.timesheets.memberWeek.query({ weekStart: W, memberId: f.manager.id }))).toMatch(
      /^FORBIDDEN/,
    );
  });
});

describe('cross-org', () => {
  it("answers NOT_FOUND for another firm's member and refuses naming them", async () => {
    const a = await firm('Alpha & Co');
    const b = await firm('Beta & Co');
    const owner = t.client(a.owner.token);
    expect(await codeOf(owner.timesheets.memberWeek.query({ weekStart: W, memberId: b.staff.id }))).toBe(
      'NOT_FOUND: Member not found',
    );
    expect(await codeOf(owner.timesheets.approve.mutate({ weekStart: W, memberIds: [b.staff.id] }))).toBe(
      'NOT_FOUND: Member not found',
    );
    expect(
      await codeOf(
        owner.timesheets.setApprovalSettings.mutate({
          dailyLimitMinutes: 600,
          approversApproverId: b.admin.id,
        }),
      ),
    ).toBe('NOT_FOUND: Member not found');
  });
});
