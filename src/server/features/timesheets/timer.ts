import { TRPCError } from '@trpc/server';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import {
  formatMinutes,
  MAX_ENTRY_MINUTES,
  TIMER_RUNNING,
  TIMER_TOO_LONG,
  type TTimerStart,
  timerMinutes,
} from '../../../domain/timesheets';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clients, tasks, timesheetTimers } from '../../db/schema';
import { audit } from '../system-log';
import { insertEntry } from './entries';
import { firmClock, resolveLinks } from './rules';

// A member's timer: one running at a time (the partial unique index holds it, so two starts in a race
// leave one timer and one CONFLICT). Stopping turns it into an entry on the firm's day it started and
// deletes it; a timer the system stopped, or one that ran past 12 hours, waits for the real end time.

type TTimer = typeof timesheetTimers.$inferSelect;

/** The caller's running timer and those waiting for an end time, with what they are for. */
export async function currentTimers(db: TDb, scope: TScope) {
  const rows = await db
    .select({
      id: timesheetTimers.id,
      startedAt: timesheetTimers.startedAt,
      stoppedAt: timesheetTimers.stoppedAt,
      autoStopped: timesheetTimers.autoStopped,
      note: timesheetTimers.note,
      taskId: timesheetTimers.taskId,
      taskTitle: tasks.title,
      clientId: timesheetTimers.clientId,
      clientName: clients.name,
    })
    .from(timesheetTimers)
    .leftJoin(tasks, and(eq(tasks.orgId, timesheetTimers.orgId), eq(tasks.id, timesheetTimers.taskId)))
    .leftJoin(
      clients,
      and(eq(clients.orgId, timesheetTimers.orgId), eq(clients.id, timesheetTimers.clientId)),
    )
    .where(and(eq(timesheetTimers.orgId, scope.orgId), eq(timesheetTimers.memberId, scope.memberId)))
    .orderBy(asc(timesheetTimers.startedAt));
  return {
    running: rows.find((r) => r.stoppedAt === null) ?? null,
    waiting: rows.filter((r) => r.stoppedAt !== null),
  };
}

export async function startTimer(db: TDb, scope: TScope, input: TTimerStart, meta: TRequestMeta) {
  try {
    return await db.transaction(async (tx) => {
      const links = await resolveLinks(tx, scope, { ...input, projectId: null, serviceId: null });
      const [row] = await tx
        .insert(timesheetTimers)
        .values({
          orgId: scope.orgId,
          memberId: scope.memberId,
          startedAt: new Date(),
          clientId: links.clientId,
          projectId: links.projectId,
          taskId: links.taskId,
          note: input.note,
        })
        .returning({ id: timesheetTimers.id });
      if (!row) throw new Error('timer not started');
      await audit(tx, actorOf(scope, meta), {
        action: 'timesheet.timerStart',
        recordType: 'timesheetTimer',
        recordId: row.id,
        summary: `Started a timer${input.note ? `: ${input.note}` : ''}`.slice(0, 2000),
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: TIMER_RUNNING });
    throw error;
  }
}

async function timerOf(tx: TExecutor, scope: TScope, where: { timerId?: string }) {
  const [row] = await tx
    .select()
    .from(timesheetTimers)
    .where(
      and(
        eq(timesheetTimers.orgId, scope.orgId),
        eq(timesheetTimers.memberId, scope.memberId),
        where.timerId ? eq(timesheetTimers.id, where.timerId) : isNull(timesheetTimers.stoppedAt),
      ),
    )
    .for('update');
  if (!row)
    throw new TRPCError({
      code: 'NOT_FOUND',
      message: where.timerId ? 'Timer not found' : 'No timer is running',
    });
  return row;
}

/** The timer becomes an entry of `minutes` on the firm's day it started, and is gone. */
async function intoEntry(tx: TExecutor, scope: TScope, timer: TTimer, endedAt: Date, meta: TRequestMeta) {
  const minutes = timerMinutes(timer.startedAt, endedAt);
  if (minutes > MAX_ENTRY_MINUTES)
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: TIMER_TOO_LONG });
  const { timeZone } = await firmClock(tx, scope.orgId);
  const date = todayIn(timeZone, timer.startedAt);
  const entry = await insertEntry(
    tx,
    scope,
    {
      date,
      minutes,
      clientId: timer.clientId,
      projectId: timer.projectId,
      taskId: timer.taskId,
      serviceId: null,
      billable: null,
      note: timer.note,
    },
    meta,
  );
  await tx.delete(timesheetTimers).where(eq(timesheetTimers.id, timer.id));
  await audit(tx, actorOf(scope, meta), {
    action: 'timesheet.timerStop',
    recordType: 'timesheetTimer',
    recordId: timer.id,
    summary: `Stopped the timer: ${formatMinutes(minutes)} on ${date}`,
  });
  return { entryId: entry.id, date, minutes };
}

/** Stops the running timer now; one that ran past 12 hours asks for the real end time instead. */
export async function stopTimer(db: TDb, scope: TScope, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const timer = await timerOf(tx, scope, {});
    return intoEntry(tx, scope, timer, new Date(), meta);
  });
}

/** The real end of the work, for a running timer or one the system stopped. */
export async function finishTimer(
  db: TDb,
  scope: TScope,
  input: { timerId: string; endedAt: Date },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const timer = await timerOf(tx, scope, { timerId: input.timerId });
    const latest = timer.stoppedAt ?? new Date();
    if (input.endedAt <= timer.startedAt)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The end must be after the timer started' });
    if (input.endedAt > latest)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: timer.stoppedAt
          ? 'The end must be before the timer stopped'
          : 'The end cannot be in the future',
      });
    return intoEntry(tx, scope, timer, input.endedAt, meta);
  });
}

export async function discardTimer(db: TDb, scope: TScope, timerId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const timer = await timerOf(tx, scope, { timerId });
    await tx.delete(timesheetTimers).where(eq(timesheetTimers.id, timer.id));
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.timerDiscard',
      recordType: 'timesheetTimer',
      recordId: timer.id,
      summary:
        `Discarded the timer started at ${timer.startedAt.toISOString()} (${timer.note || 'no note'})`.slice(
          0,
          2000,
        ),
    });
    return { id: timer.id };
  });
}
