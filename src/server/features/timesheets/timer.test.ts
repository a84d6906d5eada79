import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/days';
import { notifications, orgs, timesheetEntries, timesheetTimers } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { logRows, putOnTeam, seedClient } from '../../test/fixtures';
import { codeAndMessageOf as codeOf } from '../../test/outcome';
import { seedFirmWithRoles } from '../../test/seeded-firm';
import { noticeDue, sweepTimers } from './timer-jobs';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const HOUR = 60 * 60_000;

async function firm(name: string) {
  const f = await seedFirmWithRoles(t, name);
  const client = await seedClient(t, f.org.id, { name: `${name} client` });
  await putOnTeam(t, f.org.id, client.id, f.staff.id);
  const task = await t
    .client(f.owner.token)
    .tasks.create.mutate({ title: 'VAT return', clientId: client.id });
  return { ...f, client, task, me: t.client(f.staff.token) };
}

/** Moves the member's running timer back in time, as if it had been started hours ago. */
async function startedHoursAgo(timerId: string, hours: number, now = new Date()) {
  await t.db
    .update(timesheetTimers)
    .set({ startedAt: new Date(now.getTime() - hours * HOUR) })
    .where(eq(timesheetTimers.id, timerId));
}

const timerNotices = (memberId: string) =>
  t.db
    .select({ title: notifications.title })
    .from(notifications)
    .where(and(eq(notifications.memberId, memberId), eq(notifications.kind, 'timesheet.timer')));

describe('the timer', () => {
  it('runs once per member: of two starts at once, one wins and the other is told why', async () => {
    const f = await firm('Race & Co');
    const results = await Promise.all([
      codeOf(f.me.timesheets.timer.start.mutate({ taskId: f.task.id })),
      codeOf(f.me.timesheets.timer.start.mutate({ note: 'Training' })),
    ]);
    expect(results.sort()).toEqual([
      'CONFLICT: Your timer is already running: stop it before starting another',
      'ok',
    ]);
    const rows = await t.db.select().from(timesheetTimers).where(eq(timesheetTimers.memberId, f.staff.id));
    expect(rows).toHaveLength(1);
    // Firm time needs a note, as an entry does; another firm's task is not found.
    expect(await codeOf(t.client(f.manager.token).timesheets.timer.start.mutate({}))).toBe(
      'BAD_REQUEST: Add a note when the time is for neither a client nor a task',
    );
    const other = await firm('Other & Co');
    expect(
      await codeOf(t.client(f.manager.token).timesheets.timer.start.mutate({ taskId: other.task.id })),
    ).toBe('NOT_FOUND: Task not found');
    expect(await codeOf(f.me.timesheets.timer.discard.mutate({ timerId: other.task.id }))).toBe(
      'NOT_FOUND: Timer not found',
    );
  });

  it('stops into an entry on the firm’s day it started, with the task and its client', async () => {
    const f = await firm('Stop & Co');
    const { id } = await f.me.timesheets.timer.start.mutate({ taskId: f.task.id, note: 'Bank lines' });
    const current = await f.me.timesheets.timer.current.query();
    expect(current.running).toMatchObject({ id, taskTitle: 'VAT return', clientName: 'Stop & Co client' });
    await startedHoursAgo(id, 1.5);
    const stopped = await f.me.timesheets.timer.stop.mutate();
    expect(stopped.minutes).toBe(90);
    const [entry] = await t.db
      .select()
      .from(timesheetEntries)
      .where(eq(timesheetEntries.id, stopped.entryId));
    const [org] = await t.db.select().from(orgs).where(eq(orgs.id, f.org.id));
    expect(entry).toMatchObject({
      minutes: 90,
      taskId: f.task.id,
      clientId: f.client.id,
      note: 'Bank lines',
      billable: true,
      date: todayIn(org?.timeZone ?? 'UTC', new Date(Date.now() - 1.5 * HOUR)),
    });
    expect((await f.me.timesheets.timer.current.query()).running).toBeNull();
    expect((await logRows(t, f.org.id, id)).map((r) => r.action)).toEqual([
      'timesheet.timerStart',
      'timesheet.timerStop',
    ]);
    expect(await codeOf(f.me.timesheets.timer.stop.mutate())).toBe('NOT_FOUND: No timer is running');
  });

  it('refuses to make more than 12 hours silently: the real end time makes the entry', async () => {
    const f = await firm('Long & Co');
    const { id } = await f.me.timesheets.timer.start.mutate({ note: 'Audit file' });
    await startedHoursAgo(id, 13);
    expect(await codeOf(f.me.timesheets.timer.stop.mutate())).toBe(
      'PRECONDITION_FAILED: The timer ran more than 12 hours: give the time you stopped work',
    );
    const [timer] = await t.db.select().from(timesheetTimers).where(eq(timesheetTimers.id, id));
    const start = timer?.startedAt ?? new Date();
    expect(
      await codeOf(
        f.me.timesheets.timer.finish.mutate({ timerId: id, endedAt: new Date(start.getTime() - 1) }),
      ),
    ).toBe('BAD_REQUEST: The end must be after the timer started');
    expect(
      await codeOf(
        f.me.timesheets.timer.finish.mutate({
          timerId: id,
          endedAt: new Date(start.getTime() + 12.5 * HOUR),
        }),
      ),
    ).toBe('PRECONDITION_FAILED: The timer ran more than 12 hours: give the time you stopped work');
    const done = await f.me.timesheets.timer.finish.mutate({
      timerId: id,
      endedAt: new Date(start.getTime() + 8 * HOUR),
    });
    expect(done.minutes).toBe(480);
    expect(await t.db.select().from(timesheetTimers).where(eq(timesheetTimers.id, id))).toEqual([]);
  });
});

describe('the timer jobs', () => {
  it('find the end of the working day in the firm’s own time zone', () => {
    // 18:00 in Kolkata is 12:30 UTC; a timer started after it is told the next evening.
    expect(noticeDue(new Date('2026-03-17T05:00:00Z'), 'Asia/Kolkata')).toEqual(
      new Date('2026-03-17T12:30:00Z'),
    );
    expect(noticeDue(new Date('2026-03-17T13:00:00Z'), 'Asia/Kolkata')).toEqual(
      new Date('2026-03-18T12:30:00Z'),
    );
    // Started late in the evening UTC but already the next day in Auckland.
    expect(noticeDue(new Date('2026-03-17T20:00:00Z'), 'Pacific/Auckland')).toEqual(
      new Date('2026-03-18T05:00:00Z'),
    );
  });

  it('tell once at the end of the day, stop at 16 hours, and a second run changes nothing', async () => {
    const f = await firm('Sweep & Co');
    const { id } = await f.me.timesheets.timer.start.mutate({ taskId: f.task.id });
    const [org] = await t.db.select().from(orgs).where(eq(orgs.id, f.org.id));
    const timeZone = org?.timeZone ?? 'UTC';
    // Started three hours before an end of day two days ago, whatever the time now: a timer started
    // in the evening reaches 16 hours before the next end of day, and would never get the notice.
    const earlier = noticeDue(new Date(Date.now() - 48 * HOUR), timeZone);
    const started = new Date(earlier.getTime() - 3 * HOUR);
    await t.db.update(timesheetTimers).set({ startedAt: started }).where(eq(timesheetTimers.id, id));
    const due = noticeDue(started, timeZone);
    expect(due).toEqual(earlier);

    await sweepTimers(t.db, new Date(due.getTime() - 60_000));
    expect(await timerNotices(f.staff.id)).toEqual([]);
    await sweepTimers(t.db, due);
    await sweepTimers(t.db, new Date(due.getTime() + 60_000));
    expect(await timerNotices(f.staff.id)).toEqual([{ title: 'Your timer is still running' }]);

    const late = new Date(started.getTime() + 16 * HOUR);
    await sweepTimers(t.db, late);
    await sweepTimers(t.db, new Date(late.getTime() + HOUR));
    const [after] = await t.db.select().from(timesheetTimers).where(eq(timesheetTimers.id, id));
    expect(after).toMatchObject({ autoStopped: true, stoppedAt: late });
    expect((await timerNotices(f.staff.id)).map((n) => n.title).sort()).toEqual([
      'Your timer is still running',
      'Your timer ran for 16 hours and stopped itself',
    ]);
    expect(
      await t.db.select().from(timesheetEntries).where(eq(timesheetEntries.memberId, f.staff.id)),
    ).toEqual([]);
    const current = await f.me.timesheets.timer.current.query();
    expect(current.running).toBeNull();
    expect(current.waiting.map((w) => w.id)).toEqual([id]);
    // A new timer may run while the stopped one waits; the end time must be before it stopped.
    await f.me.timesheets.timer.start.mutate({ note: 'Next job' });
    expect(
      await codeOf(
        f.me.timesheets.timer.finish.mutate({ timerId: id, endedAt: new Date(late.getTime() + 60_000) }),
      ),
    ).toBe('BAD_REQUEST: The end must be before the timer stopped');
    const done = await f.me.timesheets.timer.finish.mutate({
      timerId: id,
      endedAt: new Date(started.getTime() + 9 * HOUR),
    });
    expect(done.minutes).toBe(540);
  });
});
