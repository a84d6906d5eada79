import { TRPCError } from '@trpc/server';
import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import { addDays } from '../../../domain/days';
import { formatMinutes, type TLockSettings, type TWeekStatus } from '../../../domain/timesheets';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { timesheetEntries, timesheetSettings, timesheetWeeks } from '../../db/schema';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit, diff } from '../system-log';
import { assertMayDecide } from './approvers';
import { currentBillRate, currentCostRate } from './rates';
import { firmClock, weekStatus } from './rules';
import { teamWeek } from './team-week';

const link = (weekStart: string) => `/my-account/timesheet?week=${weekStart}`;
/** A week's first day as the firm writes dates, for the notifications people read. */
const weekOf = async (tx: TExecutor, orgId: string, weekStart: string) =>
  (await firmFormatter(tx, orgId)).date(weekStart);

const weekEntries = (orgId: string, memberIds: string[], weekStart: string) =>
  and(
    eq(timesheetEntries.orgId, orgId),
    inArray(timesheetEntries.memberId, memberIds),
    gte(timesheetEntries.date, weekStart),
    lte(timesheetEntries.date, addDays(weekStart, 6)),
  );

async function setWeek(
  tx: TExecutor,
  orgId: string,
  memberId: string,
  weekStart: string,
  values: {
    status: TWeekStatus;
    submittedAt?: Date;
    decidedAt?: Date | null;
    decidedBy?: string | null;
    comment?: string | null;
  },
) {
  await tx
    .insert(timesheetWeeks)
    .values({ orgId, memberId, weekStart, ...values })
    .onConflictDoUpdate({
      target: [timesheetWeeks.orgId, timesheetWeeks.memberId, timesheetWeeks.weekStart],
      set: { ...values, updatedAt: new Date() },
    });
}

/** The caller sends their week for approval: every entry of it becomes submitted. */
export async function submitWeek(db: TDb, scope: TScope, weekStart: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const week = await weekStatus(tx, scope.orgId, scope.memberId, weekStart, true);
    if (week.status === 'submitted' || week.status === 'approved')
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `This week is already ${week.status}` });
    const entries = await tx
      .update(timesheetEntries)
      .set({ status: 'submitted' })
      .where(weekEntries(scope.orgId, [scope.memberId], weekStart))
      .returning({ minutes: timesheetEntries.minutes });
    const total = entries.reduce((sum, e) => sum + e.minutes, 0);
    await setWeek(tx, scope.orgId, scope.memberId, weekStart, {
      status: 'submitted',
      submittedAt: new Date(),
      decidedAt: null,
      decidedBy: null,
      comment: null,
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.submit',
      recordType: 'timesheetWeek',
      recordId: scope.memberId,
      summary: `Submitted the week of ${await weekOf(tx, scope.orgId, weekStart)} (${formatMinutes(total) || '0:00'})`,
    });
    return { status: 'submitted' as const, minutes: total };
  });
}

/** Approves submitted weeks: the rates in force now are copied onto each entry. */
export async function approveWeeks(
  db: TDb,
  scope: TScope,
  input: { weekStart: string; memberIds: string[] },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const people = await assertMayDecide(tx, scope, input.memberIds);
    const weeks = await tx
      .select({ memberId: timesheetWeeks.memberId })
      .from(timesheetWeeks)
      .where(
        and(
          eq(timesheetWeeks.orgId, scope.orgId),
          eq(timesheetWeeks.weekStart, input.weekStart),
          inArray(timesheetWeeks.memberId, input.memberIds),
          eq(timesheetWeeks.status, 'submitted'),
        ),
      )
      .for('update');
    const ready = new Set(weeks.map((w) => w.memberId));
    if (!ready.size)
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'There is no submitted week to approve' });
    const ids = [...ready];
    // One statement: every entry of the week takes the rates in force now (rates.ts holds the rule).
    await tx
      .update(timesheetEntries)
      .set({ status: 'approved', billRate: currentBillRate, costRate: currentCostRate })
      .where(weekEntries(scope.orgId, ids, input.weekStart));
    const now = new Date();
    const actor = actorOf(scope, meta);
    for (const person of people.filter((p) => ready.has(p.id))) {
      await setWeek(tx, scope.orgId, person.id, input.weekStart, {
        status: 'approved',
        decidedAt: now,
        decidedBy: scope.memberId,
        comment: null,
      });
      await audit(tx, actor, {
        action: 'timesheet.approve',
        recordType: 'timesheetWeek',
        recordId: person.id,
        summary: `Approved ${person.name}'s week of ${await weekOf(tx, scope.orgId, input.weekStart)}`,
      });
    }
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: ids,
      kind: 'timesheet.decided',
      title: `Your week of ${await weekOf(tx, scope.orgId, input.weekStart)} is approved`,
      link: link(input.weekStart),
    });
    return { approved: ids.length };
  });
}

/**
 * Sends one member's week back with a comment: that week (and only that week) opens again for
 * them; later weeks keep their state.
 */
export async function rejectWeek(
  db: TDb,
  scope: TScope,
  input: { weekStart: string; memberId: string; comment: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const [person] = await assertMayDecide(tx, scope, [input.memberId]);
    const week = await weekStatus(tx, scope.orgId, input.memberId, input.weekStart, true);
    if (week.status !== 'submitted' && week.status !== 'approved')
      throw new TRPCError({
        code: 'PRECONDITION_FAILED',
        message: 'Only a submitted or approved week can be sent back',
      });
    await tx
      .update(timesheetEntries)
      .set({ status: 'rejected', billRate: null, costRate: null })
      .where(weekEntries(scope.orgId, [input.memberId], input.weekStart));
    await setWeek(tx, scope.orgId, input.memberId, input.weekStart, {
      status: 'rejected',
      decidedAt: new Date(),
      decidedBy: scope.memberId,
      comment: input.comment,
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.reject',
      recordType: 'timesheetWeek',
      recordId: input.memberId,
      summary: `Sent back ${person?.name}'s week of ${await weekOf(tx, scope.orgId, input.weekStart)}: ${input.comment}`,
      changes: { status: { from: week.status, to: 'rejected' } },
    });
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: [input.memberId],
      kind: 'timesheet.decided',
      title: `Your week of ${await weekOf(tx, scope.orgId, input.weekStart)} was sent back`,
      body: input.comment,
      link: link(input.weekStart),
    });
    return { status: 'rejected' as const };
  });
}

/** Reminds everyone whose week is neither submitted nor approved. */
export async function remindWeek(db: TDb, scope: TScope, weekStart: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const week = await teamWeek(tx, scope, weekStart);
    const due = week.members.filter((m) => m.status === 'open' || m.status === 'rejected');
    if (!due.length) return { reminded: 0 };
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: due.map((m) => m.id),
      kind: 'timesheet.reminder',
      title: `Please submit your timesheet for the week of ${await weekOf(tx, scope.orgId, weekStart)}`,
      link: link(weekStart),
    });
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.remind',
      recordType: 'timesheetWeek',
      summary: `Reminded ${due.length} member${due.length === 1 ? '' : 's'} to submit the week of ${await weekOf(tx, scope.orgId, weekStart)}`,
    });
    return { reminded: due.length };
  });
}

export async function lockSettings(db: TExecutor, scope: TScope) {
  const clock = await firmClock(db, scope.orgId);
  return { lockDate: clock.lockDate, graceDays: clock.graceDays };
}

export async function setLockSettings(db: TDb, scope: TScope, input: TLockSettings, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await lockSettings(tx, scope);
    const changes = diff(before, input);
    if (!changes) return input;
    await tx
      .insert(timesheetSettings)
      .values({ orgId: scope.orgId, ...input })
      .onConflictDoUpdate({ target: timesheetSettings.orgId, set: { ...input, updatedAt: new Date() } });
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.lock',
      recordType: 'timesheetSettings',
      recordId: scope.orgId,
      summary: input.lockDate
        ? `Locked time on or before ${await weekOf(tx, scope.orgId, input.lockDate)} (${input.graceDays} grace days)`
        : 'Removed the timesheet lock date',
      changes,
    });
    return input;
  });
}
