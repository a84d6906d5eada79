import { TRPCError } from '@trpc/server';
import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import { daysBetween, todayIn } from '../../../domain/days';
import type { TFormatter } from '../../../domain/format';
import {
  attachmentRequiredMessage,
  formatAmountWithUnit,
  needsAttachment,
  type TLeavePart,
  type TLeaveRequestFields,
} from '../../../domain/leave';
import { deduction, ownLeaveCancel, type TDeduction } from '../../../domain/leave-rules';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { leaveRequests, members, orgs } from '../../db/schema';
import { memberName } from '../../db/sql';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { approversFor } from './access';
import { linkLeaveAttachment } from './attachments';
import { holidaysBetween, holidaysForOffice } from './holidays';
import { balanceOf, post } from './ledger';
import { leaveTypeOf, type TLeaveTypeRow } from './types';
import { getLeaveSettings, patternsOf } from './work';

const bad = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

const PARTS_BY_UNIT: Record<TLeaveTypeRow['unit'], readonly TLeavePart[]> = {
  day: ['full'],
  half_day: ['full', 'first_half', 'second_half'],
  hour: ['full', 'first_half', 'second_half', 'hours'],
};

export type TLeavePreview = TDeduction & {
  unit: TLeaveTypeRow['unit'];
  /** Days the leave takes off work (hours as a share of the member's day). */
  dayCount: number;
  balance: number;
  pending: number;
  /** What is left once this request and the pending ones are taken. */
  after: number;
  allowNegative: boolean;
  needsSecondLevel: boolean;
  /** The type asks for a file with a request this long. */
  attachmentRequired: boolean;
};

/**
 * What a request would deduct for `memberId`, with the balance before and after, and the rules
 * that refuse it. The apply form shows this before submitting; apply runs it again in its
 * transaction, so both see the same figure.
 */
export async function previewLeave(
  db: TExecutor,
  orgId: string,
  memberId: string,
  input: TLeaveRequestFields,
  exceptRequestId?: string,
): Promise<TLeavePreview> {
  const type = await leaveTypeOf(db, orgId, input.leaveTypeId);
  if (type.archived) throw bad(`${type.name} is no longer offered`);
  if (!PARTS_BY_UNIT[type.unit].includes(input.part)) {
    throw bad(`${type.name} is taken in ${type.unit === 'day' ? 'full days' : 'full or half days'}`);
  }
  const span = daysBetween(input.startDate, input.endDate).length;
  if (type.maxConsecutiveDays && span > type.maxConsecutiveDays) {
    throw bad(`${type.name} is at most ${type.maxConsecutiveDays} days in a row`);
  }
  const [patterns, settings] = await Promise.all([
    patternsOf(db, orgId, [memberId]),
    getLeaveSettings(db, orgId),
  ]);
  const pattern = patterns.get(memberId);
  if (!pattern) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  const holidays = holidaysForOffice(
    await holidaysBetween(db, orgId, input.startDate, input.endDate, pattern.office),
    pattern.office,
  );
  const d = deduction(input, type, pattern, holidays);
  if (d.amount <= 0) throw bad('These days are holidays or not working days: there is nothing to take');
  const year = Number(input.startDate.slice(0, 4));
  const b = await balanceOf(db, orgId, memberId, type.id, year);
  let pending = b.pending;
  if (exceptRequestId) {
    const [self] = await db
      .select({ amount: leaveRequests.amount, status: leaveRequests.status })
      .from(leaveRequests)
      .where(and(eq(leaveRequests.orgId, orgId), eq(leaveRequests.id, exceptRequestId)));
    if (self?.status === 'pending') pending -= self.amount;
  }
  const dayCount =
    input.part === 'hours'
      ? (input.minutes ?? 0) / pattern.minutesPerDay
      : d.days.reduce((s, x) => s + x.share, 0);
  return {
    ...d,
    unit: type.unit,
    dayCount,
    balance: b.balance,
    pending,
    after: b.balance - pending - d.amount,
    allowNegative: type.allowNegative,
    needsSecondLevel: settings.secondLevelAfterDays !== null && dayCount > settings.secondLevelAfterDays,
    attachmentRequired: needsAttachment(type, dayCount),
  };
}

function refuseOverdraw(p: TLeavePreview) {
  if (p.after < 0 && !p.allowNegative) {
    throw bad(
      `Not enough balance: ${formatAmountWithUnit(p.balance - p.pending, p.unit)} left, this takes ${formatAmountWithUnit(p.amount, p.unit)}`,
    );
  }
}

/** Refuses a request that overlaps another pending or approved one (two halves of a day may coexist). */
async function refuseOverlap(tx: TExecutor, orgId: string, memberId: string, input: TLeaveRequestFields) {
  const others = await tx
    .select({ startDate: leaveRequests.startDate, endDate: leaveRequests.endDate, part: leaveRequests.part })
    .from(leaveRequests)
    .where(
      and(
        eq(leaveRequests.orgId, orgId),
        eq(leaveRequests.memberId, memberId),
        inArray(leaveRequests.status, ['pending', 'approved']),
        lte(leaveRequests.startDate, input.endDate),
        gte(leaveRequests.endDate, input.startDate),
      ),
    )
    .for('update');
  const clash = others.find(
    (o) =>
      !(
        (o.part === 'first_half' && input.part === 'second_half') ||
        (o.part === 'second_half' && input.part === 'first_half')
      ),
  );
  if (clash) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: `You already have leave on ${(await firmFormatter(tx, orgId)).dateRange(clash.startDate, clash.endDate)}: these days overlap it`,
    });
  }
}

export async function applyLeave(db: TDb, scope: TScope, input: TLeaveRequestFields, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    // One request at a time per member, so two tabs cannot both pass the overlap and balance checks.
    await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)))
      .for('update');
    const p = await previewLeave(tx, scope.orgId, scope.memberId, input);
    await refuseOverlap(tx, scope.orgId, scope.memberId, input);
    refuseOverdraw(p);
    const type = await leaveTypeOf(tx, scope.orgId, input.leaveTypeId);
    if (p.attachmentRequired && !input.attachmentId) {
      throw bad(attachmentRequiredMessage(type.name, type.attachmentAfterDays ?? 0));
    }
    const [row] = await tx
      .insert(leaveRequests)
      .values({
        orgId: scope.orgId,
        memberId: scope.memberId,
        leaveTypeId: type.id,
        startDate: input.startDate,
        endDate: input.endDate,
        part: input.part,
        minutes: input.part === 'hours' ? (input.minutes ?? null) : null,
        amount: p.amount,
        reason: input.reason || null,
        needsSecondLevel: p.needsSecondLevel,
      })
      .returning({ id: leaveRequests.id });
    if (!row) throw new Error('leave request not created');
    const attachment = input.attachmentId
      ? await linkLeaveAttachment(tx, scope, input.attachmentId, row.id)
      : null;
    const [me] = await tx
      .select({ name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)));
    const what = `${formatAmountWithUnit(p.amount, type.unit)} of ${type.name} (${spanText(input, await firmFormatter(tx, scope.orgId))})`;
    await audit(tx, actorOf(scope, meta), {
      action: 'leave.apply',
      recordType: 'leaveRequest',
      recordId: row.id,
      summary: `Applied for ${what}${attachment ? `, with “${attachment.name}”` : ''}`,
    });
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: await approversFor(tx, scope.orgId, scope.memberId),
      kind: 'leave.requested',
      title: `${me?.name ?? 'A member'} asks for ${what}`,
      body: input.reason || undefined,
      link: `/team/leaves?open=${row.id}`,
    });
    return { id: row.id, amount: p.amount };
  });
}

/** The days a request covers, written as the firm writes dates (notifications, mails, the log). */
export const spanText = (
  r: { startDate: string; endDate: string; part: TLeavePart; minutes?: number | null },
  format: TFormatter,
) =>
  r.part === 'full'
    ? format.dateRange(r.startDate, r.endDate)
    : r.part === 'hours'
      ? `${format.date(r.startDate)}, ${(r.minutes ?? 0) / 60} h`
      : `${format.date(r.startDate)}, ${r.part === 'first_half' ? 'first' : 'second'} half`;

export async function requestOf(tx: TExecutor, orgId: string, requestId: string) {
  const [row] = await tx
    .select()
    .from(leaveRequests)
    .where(and(eq(leaveRequests.orgId, orgId), eq(leaveRequests.id, requestId)))
    .for('update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Leave request not found' });
  return row;
}

export async function orgToday(tx: TExecutor, orgId: string) {
  const [org] = await tx.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId));
  return todayIn(org?.timeZone ?? 'UTC');
}

/** The member's own pending request, or an approved one that has not started, is cancelled. */
export async function cancelLeave(db: TDb, scope: TScope, requestId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const r = await requestOf(tx, scope.orgId, requestId);
    if (r.memberId !== scope.memberId)
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Leave request not found' });
    const cancel = ownLeaveCancel(r, await orgToday(tx, scope.orgId));
    const future = cancel === 'return-days';
    if (!cancel) {
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'Only a pending leave, or an approved one yet to start, can be cancelled',
      });
    }
    await tx
      .update(leaveRequests)
      .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(leaveRequests.orgId, scope.orgId), eq(leaveRequests.id, r.id)));
    if (future) {
      await post(tx, [
        {
          orgId: scope.orgId,
          memberId: r.memberId,
          leaveTypeId: r.leaveTypeId,
          kind: 'reversal',
          amount: r.amount,
          effectiveOn: r.startDate,
          requestId: r.id,
          runKey: `reversal:${r.id}`,
          createdBy: scope.memberId,
        },
      ]);
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'leave.cancel',
      recordType: 'leaveRequest',
      recordId: r.id,
      summary: `Cancelled ${future ? 'approved' : 'pending'} leave (${spanText(r, await firmFormatter(tx, scope.orgId))})`,
    });
    return { id: r.id };
  });
}

/** The requests of members in `memberIds` (or everyone) that touch the days from `from` to `to`. */
export function requestsTouching(
  db: TExecutor,
  orgId: string,
  from: string,
  to: string,
  statuses: ('pending' | 'approved')[],
  memberIds?: readonly string[],
) {
  return db
    .select({
      id: leaveRequests.id,
      memberId: leaveRequests.memberId,
      leaveTypeId: leaveRequests.leaveTypeId,
      startDate: leaveRequests.startDate,
      endDate: leaveRequests.endDate,
      part: leaveRequests.part,
      minutes: leaveRequests.minutes,
      status: leaveRequests.status,
    })
    .from(leaveRequests)
    .where(
      and(
        eq(leaveRequests.orgId, orgId),
        inArray(leaveRequests.status, statuses),
        lte(leaveRequests.startDate, to),
        gte(leaveRequests.endDate, from),
        memberIds ? inArray(leaveRequests.memberId, [...memberIds]) : undefined,
      ),
    );
}
