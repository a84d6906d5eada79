import { TZDate } from '@date-fns/tz';
import { and, eq, isNull, lte } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import { TIMER_AUTO_STOP_MINUTES, TIMER_NOTICE_AT } from '../../../domain/timesheets';
import type { TDb } from '../../db/client';
import { orgs, timesheetTimers } from '../../db/schema';
import { every, registerJob } from '../../jobs/registry';
import { notify } from '../notifications';
import { audit } from '../system-log';

// Each running timer is looked at every quarter hour: past the end of the firm's working day it
// brings its member one notice (notice_sent_at remembers it); at 16 hours it stops itself and waits
// for the real end time. Both are conditional updates on the row, so a second run changes nothing.

export const TIMER_SWEEP = 'timesheets.timerSweep';
const AUTO_STOP_MS = TIMER_AUTO_STOP_MINUTES * 60_000;
const LINK = '/my-account/timesheet';

/** The first end of a working day (firm time) after the timer started. */
export function noticeDue(startedAt: Date, timeZone: string): Date {
  const [h, m] = TIMER_NOTICE_AT.split(':').map(Number);
  const day = todayIn(timeZone, startedAt);
  const [y, mo, d] = day.split('-').map(Number);
  const due = new TZDate(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 18, m ?? 0, 0, timeZone);
  if (due.getTime() <= startedAt.getTime()) due.setDate(due.getDate() + 1);
  return new Date(due.getTime());
}

export async function sweepTimers(db: TDb, now = new Date()) {
  const running = await db
    .select({
      id: timesheetTimers.id,
      orgId: timesheetTimers.orgId,
      memberId: timesheetTimers.memberId,
      startedAt: timesheetTimers.startedAt,
      noticeSentAt: timesheetTimers.noticeSentAt,
      timeZone: orgs.timeZone,
    })
    .from(timesheetTimers)
    .innerJoin(orgs, eq(orgs.id, timesheetTimers.orgId))
    .where(and(isNull(timesheetTimers.stoppedAt), lte(timesheetTimers.startedAt, now)));
  let stopped = 0;
  let noticed = 0;
  for (const t of running) {
    const system = { kind: 'system' as const, orgId: t.orgId };
    if (now.getTime() - t.startedAt.getTime() >= AUTO_STOP_MS) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(timesheetTimers)
          .set({ stoppedAt: now, autoStopped: true })
          .where(and(eq(timesheetTimers.id, t.id), isNull(timesheetTimers.stoppedAt)))
          .returning({ id: timesheetTimers.id });
        if (!row) return;
        stopped += 1;
        await audit(tx, system, {
          action: 'timesheet.timerAutoStop',
          recordType: 'timesheetTimer',
          recordId: t.id,
          summary: 'A timer ran for 16 hours and stopped itself',
        });
        await notify(tx, {
          orgId: t.orgId,
          memberIds: [t.memberId],
          kind: 'timesheet.timer',
          title: 'Your timer ran for 16 hours and stopped itself',
          body: 'Give the time you stopped work to record it.',
          link: LINK,
        });
      });
      continue;
    }
    if (t.noticeSentAt || now < noticeDue(t.startedAt, t.timeZone)) continue;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(timesheetTimers)
        .set({ noticeSentAt: now })
        .where(
          and(
            eq(timesheetTimers.id, t.id),
            isNull(timesheetTimers.stoppedAt),
            isNull(timesheetTimers.noticeSentAt),
          ),
        )
        .returning({ id: timesheetTimers.id });
      if (!row) return;
      noticed += 1;
      await audit(tx, system, {
        action: 'timesheet.timerNotice',
        recordType: 'timesheetTimer',
        recordId: t.id,
        summary: 'Told the member their timer is still running at the end of the day',
      });
      await notify(tx, {
        orgId: t.orgId,
        memberIds: [t.memberId],
        kind: 'timesheet.timer',
        title: 'Your timer is still running',
        body: 'Stop it if you have finished for the day.',
        link: LINK,
      });
    });
  }
  return { stopped, noticed };
}

export function registerTimesheetJobs() {
  registerJob(TIMER_SWEEP, async (_job, ctx) => {
    const result = await sweepTimers(ctx.db);
    if (result.stopped || result.noticed) ctx.log.info(result, 'timers swept');
  });
  every(TIMER_SWEEP, 15 * 60_000);
}
