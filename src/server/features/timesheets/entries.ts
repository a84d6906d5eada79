import { TRPCError } from '@trpc/server';
import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TFormatter } from '../../../domain/format';
import { hasPermission } from '../../../domain/permissions';
import { formatMinutes, type TCellInput, type TEntryInput } from '../../../domain/timesheets';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { timesheetEntries } from '../../db/schema';
import { clientVisibility } from '../clients';
import { afterTimeLogged } from '../projects';
import { firmFormatter } from '../settings';
import { audit, diff } from '../system-log';
import { assertMayDecide } from './approvers';
import {
  assertOpenDay,
  assertWeekOpen,
  defaultBillable,
  firmClock,
  resolveLinks,
  type TLinks,
  weekStatus,
} from './rules';

const mayApprove = (scope: TScope) => hasPermission(scope, 'timesheets.approve');

async function entryOf(tx: TExecutor, scope: TScope, entryId: string) {
  const [row] = await tx
    .select()
    .from(timesheetEntries)
    .where(and(eq(timesheetEntries.orgId, scope.orgId), eq(timesheetEntries.id, entryId)))
    .for('update');
  // Somebody else's entry is only there for an approver.
  if (!row || (row.memberId !== scope.memberId && !mayApprove(scope)))
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Time entry not found' });
  return row;
}

/** One entry as the API answers it: the caller's own, or anyone's for an approver (as entryOf). */
export async function getEntry(db: TExecutor, scope: TScope, entryId: string) {
  // Time for a client the caller may not see is not theirs to read (time without a client is).
  const visible = clientVisibility(scope, timesheetEntries.clientId);
  const visibleTime = visible ? or(isNull(timesheetEntries.clientId), visible) : undefined;
  const [row] = await db
    .select({
      id: timesheetEntries.id,
      memberId: timesheetEntries.memberId,
      date: timesheetEntries.date,
      minutes: timesheetEntries.minutes,
      clientId: timesheetEntries.clientId,
      projectId: timesheetEntries.projectId,
      taskId: timesheetEntries.taskId,
      serviceId: timesheetEntries.serviceId,
      billable: timesheetEntries.billable,
      note: timesheetEntries.note,
      status: timesheetEntries.status,
      createdAt: timesheetEntries.createdAt,
    })
    .from(timesheetEntries)
    .where(and(eq(timesheetEntries.orgId, scope.orgId), eq(timesheetEntries.id, entryId), visibleTime));
  if (!row || (row.memberId !== scope.memberId && !mayApprove(scope)))
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Time entry not found' });
  return row;
}

/**
 * Whether a change to an entry on this day is allowed: the member's own open week and an open day;
 * an approver may change the time of those whose weeks they decide, and that change is logged with
 * before and after.
 */
async function assertChangeable(tx: TExecutor, scope: TScope, memberId: string, day: string) {
  const approver = mayApprove(scope);
  assertOpenDay(day, await firmClock(tx, scope.orgId), approver);
  if (!approver || memberId === scope.memberId)
    assertWeekOpen((await weekStatus(tx, scope.orgId, memberId, day, true)).status);
}

/** Changing someone else's time is deciding it: only who may approve that week may (approvers.ts). */
async function assertMayChange(tx: TExecutor, scope: TScope, memberId: string) {
  if (memberId !== scope.memberId) await assertMayDecide(tx, scope, [memberId]);
}

/** The total on one day may not pass 24 hours either. */
async function assertDayTotal(
  tx: TExecutor,
  scope: TScope,
  memberId: string,
  day: string,
  adding: number,
  except?: string,
) {
  const rows = await tx
    .select({ id: timesheetEntries.id, minutes: timesheetEntries.minutes })
    .from(timesheetEntries)
    .where(
      and(
        eq(timesheetEntries.orgId, scope.orgId),
        eq(timesheetEntries.memberId, memberId),
        eq(timesheetEntries.date, day),
      ),
    );
  const total = rows.filter((r) => r.id !== except).reduce((sum, r) => sum + r.minutes, 0) + adding;
  if (total > 24 * 60)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `${(await firmFormatter(tx, scope.orgId)).date(day)} would hold more than 24 hours`,
    });
}

const summaryOf = (minutes: number, day: string, format: TFormatter) =>
  `${formatMinutes(minutes)} on ${format.date(day)}`;

export async function createEntry(db: TDb, scope: TScope, input: TEntryInput, meta: TRequestMeta) {
  return db.transaction((tx) => insertEntry(tx, scope, input, meta));
}

/** A new entry of the caller's, inside the caller's transaction (the timer makes one too). */
export async function insertEntry(tx: TExecutor, scope: TScope, input: TEntryInput, meta: TRequestMeta) {
  await assertChangeable(tx, scope, scope.memberId, input.date);
  const links = await resolveLinks(tx, scope, input);
  await assertDayTotal(tx, scope, scope.memberId, input.date, input.minutes);
  const [row] = await tx
    .insert(timesheetEntries)
    .values({
      orgId: scope.orgId,
      memberId: scope.memberId,
      date: input.date,
      minutes: input.minutes,
      ...links,
      billable: input.billable ?? defaultBillable(links),
      note: input.note,
    })
    .returning({ id: timesheetEntries.id });
  if (!row) throw new Error('entry not created');
  await audit(tx, actorOf(scope, meta), {
    action: 'timesheet.create',
    recordType: 'timesheetEntry',
    recordId: row.id,
    summary: `Recorded ${summaryOf(input.minutes, input.date, await firmFormatter(tx, scope.orgId))}`,
  });
  await afterTimeLogged(tx, scope.orgId, { projectIds: [links.projectId], taskIds: [links.taskId] });
  return { id: row.id };
}

export async function updateEntry(
  db: TDb,
  scope: TScope,
  entryId: string,
  input: TEntryInput,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await entryOf(tx, scope, entryId);
    await assertChangeable(tx, scope, before.memberId, before.date);
    if (input.date !== before.date) await assertChangeable(tx, scope, before.memberId, input.date);
    // After the links: a client the caller may not see answers NOT_FOUND before any other refusal.
    const links = await resolveLinks(tx, scope, input);
    await assertMayChange(tx, scope, before.memberId);
    await assertDayTotal(tx, scope, before.memberId, input.date, input.minutes, entryId);
    const after = {
      date: input.date,
      minutes: input.minutes,
      ...links,
      billable: input.billable ?? defaultBillable(links),
      note: input.note,
    };
    const changes = diff(before, after);
    if (!changes) return { id: entryId };
    await tx
      .update(timesheetEntries)
      .set(after)
      .where(and(eq(timesheetEntries.orgId, scope.orgId), eq(timesheetEntries.id, entryId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.update',
      recordType: 'timesheetEntry',
      recordId: entryId,
      summary: `Changed the time ${summaryOf(before.minutes, before.date, await firmFormatter(tx, scope.orgId))}${
        before.status === 'approved' ? ' (approved)' : ''
      }`,
      changes,
    });
    await afterTimeLogged(tx, scope.orgId, {
      projectIds: [before.projectId, links.projectId],
      taskIds: [before.taskId, links.taskId],
    });
    return { id: entryId };
  });
}

export async function deleteEntry(db: TDb, scope: TScope, entryId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await entryOf(tx, scope, entryId);
    await assertMayChange(tx, scope, before.memberId);
    await assertChangeable(tx, scope, before.memberId, before.date);
    await tx
      .delete(timesheetEntries)
      .where(and(eq(timesheetEntries.orgId, scope.orgId), eq(timesheetEntries.id, entryId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.delete',
      recordType: 'timesheetEntry',
      recordId: entryId,
      summary: `Deleted the time ${summaryOf(before.minutes, before.date, await firmFormatter(tx, scope.orgId))}`,
      changes: { minutes: { from: before.minutes, to: null }, status: { from: before.status, to: null } },
    });
    await afterTimeLogged(tx, scope.orgId, { projectIds: [before.projectId], taskIds: [before.taskId] });
    return { id: entryId };
  });
}

const sameLink = (column: AnyPgColumn, value: string | null): SQL =>
  value === null ? isNull(column) : eq(column, value);

/**
 * One cell of the week grid: the member's entry for this row on this day becomes `minutes` (0
 * removes it). A cell made of several entries is changed in the day list instead.
 */
export async function setCell(db: TDb, scope: TScope, input: TCellInput, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    await assertChangeable(tx, scope, scope.memberId, input.date);
    const links: TLinks = await resolveLinks(tx, scope, input);
    const existing = await tx
      .select()
      .from(timesheetEntries)
      .where(
        and(
          eq(timesheetEntries.orgId, scope.orgId),
          eq(timesheetEntries.memberId, scope.memberId),
          eq(timesheetEntries.date, input.date),
          sameLink(timesheetEntries.clientId, links.clientId),
          sameLink(timesheetEntries.projectId, links.projectId),
          sameLink(timesheetEntries.taskId, links.taskId),
          sameLink(timesheetEntries.serviceId, links.serviceId),
        ),
      )
      .for('update');
    if (existing.length > 1)
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'This day has several entries for this row: change them in the day list',
      });
    const [before] = existing;
    const actor = actorOf(scope, meta);
    const logged = () =>
      afterTimeLogged(tx, scope.orgId, { projectIds: [links.projectId], taskIds: [links.taskId] });
    if (input.minutes === 0) {
      if (!before) return { id: null };
      await tx.delete(timesheetEntries).where(eq(timesheetEntries.id, before.id));
      await audit(tx, actor, {
        action: 'timesheet.delete',
        recordType: 'timesheetEntry',
        recordId: before.id,
        summary: `Deleted the time ${summaryOf(before.minutes, before.date, await firmFormatter(tx, scope.orgId))}`,
        changes: { minutes: { from: before.minutes, to: null } },
      });
      await logged();
      return { id: null };
    }
    await assertDayTotal(tx, scope, scope.memberId, input.date, input.minutes, before?.id);
    if (before) {
      if (before.minutes === input.minutes) return { id: before.id };
      await tx
        .update(timesheetEntries)
        .set({ minutes: input.minutes, status: 'draft' })
        .where(eq(timesheetEntries.id, before.id));
      await audit(tx, actor, {
        action: 'timesheet.update',
        recordType: 'timesheetEntry',
        recordId: before.id,
        summary: `Changed the time on ${(await firmFormatter(tx, scope.orgId)).date(input.date)} to ${formatMinutes(input.minutes)}`,
        changes: { minutes: { from: before.minutes, to: input.minutes } },
      });
      await logged();
      return { id: before.id };
    }
    const [row] = await tx
      .insert(timesheetEntries)
      .values({
        orgId: scope.orgId,
        memberId: scope.memberId,
        date: input.date,
        minutes: input.minutes,
        ...links,
        billable: defaultBillable(links),
        note: input.note,
      })
      .returning({ id: timesheetEntries.id });
    if (!row) throw new Error('entry not created');
    await audit(tx, actor, {
      action: 'timesheet.create',
      recordType: 'timesheetEntry',
      recordId: row.id,
      summary: `Recorded ${summaryOf(input.minutes, input.date, await firmFormatter(tx, scope.orgId))}`,
    });
    await logged();
    return { id: row.id };
  });
}
