import { and, asc, desc, eq, gte, inArray, lte, ne } from 'drizzle-orm';
import { daysBetween } from '../../../domain/days';
import type { TLeavePart } from '../../../domain/leave';
import { availableMinutesByDay, ownLeaveCancel } from '../../../domain/leave-rules';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { leaveAttachments, leaveRequests, leaveTypes, members, memberWork } from '../../db/schema';
import { memberName } from '../../db/sql';
import { canApproveAny, mayDecide } from './access';
import { holidaysBetween, holidaysForOffice } from './holidays';
import { balances } from './ledger';
import { orgToday, requestsTouching } from './requests';
import { listLeaveTypes } from './types';
import { getLeaveSettings, patternsOf, type TMemberPattern } from './work';

const requestColumns = {
  id: leaveRequests.id,
  memberId: leaveRequests.memberId,
  memberName,
  leaveTypeId: leaveRequests.leaveTypeId,
  typeName: leaveTypes.name,
  unit: leaveTypes.unit,
  startDate: leaveRequests.startDate,
  endDate: leaveRequests.endDate,
  part: leaveRequests.part,
  minutes: leaveRequests.minutes,
  amount: leaveRequests.amount,
  reason: leaveRequests.reason,
  status: leaveRequests.status,
  needsSecondLevel: leaveRequests.needsSecondLevel,
  firstApproverId: leaveRequests.firstApproverId,
  decisionComment: leaveRequests.decisionComment,
  decidedAt: leaveRequests.decidedAt,
  createdAt: leaveRequests.createdAt,
  attachment: {
    id: leaveAttachments.id,
    name: leaveAttachments.name,
    size: leaveAttachments.size,
    contentType: leaveAttachments.contentType,
  },
};

const joined = (db: TExecutor) =>
  db
    .select({ ...requestColumns, managerId: memberWork.managerId })
    .from(leaveRequests)
    .innerJoin(
      leaveTypes,
      and(eq(leaveTypes.orgId, leaveRequests.orgId), eq(leaveTypes.id, leaveRequests.leaveTypeId)),
    )
    .innerJoin(members, and(eq(members.orgId, leaveRequests.orgId), eq(members.id, leaveRequests.memberId)))
    .leftJoin(
      memberWork,
      and(eq(memberWork.orgId, leaveRequests.orgId), eq(memberWork.memberId, leaveRequests.memberId)),
    )
    .leftJoin(
      leaveAttachments,
      and(eq(leaveAttachments.orgId, leaveRequests.orgId), eq(leaveAttachments.requestId, leaveRequests.id)),
    );

/**
 * The caller's requests of a year, each with how it may be cancelled today (`cancel`, null when it
 * may not), and their balance of each active type.
 */
export async function myLeave(db: TExecutor, scope: TScope, year: number) {
  const [requests, types, own, today] = await Promise.all([
    joined(db)
      .where(
        and(
          eq(leaveRequests.orgId, scope.orgId),
          eq(leaveRequests.memberId, scope.memberId),
          gte(leaveRequests.startDate, `${year}-01-01`),
          lte(leaveRequests.startDate, `${year}-12-31`),
        ),
      )
      .orderBy(desc(leaveRequests.startDate), desc(leaveRequests.createdAt)),
    listLeaveTypes(db, scope.orgId),
    balances(db, scope.orgId, year, [scope.memberId]),
    orgToday(db, scope.orgId),
  ]);
  const byType = new Map(own.map((b) => [b.leaveTypeId, b]));
  return {
    requests: requests.map(({ managerId: _m, ...r }) => ({ ...r, cancel: ownLeaveCancel(r, today) })),
    balances: types.map((t) => {
      const b = byType.get(t.id);
      return {
        leaveTypeId: t.id,
        name: t.name,
        unit: t.unit,
        paid: t.paid,
        attachmentAfterDays: t.attachmentAfterDays,
        balance: b?.balance ?? 0,
        taken: b?.taken ?? 0,
        pending: b?.pending ?? 0,
      };
    }),
  };
}

/** Members whose leave the caller decides: everyone (with `leaves.approve`) or those they manage. */
async function teamOf(db: TExecutor, scope: TScope): Promise<string[] | undefined> {
  if (canApproveAny(scope)) return undefined;
  const rows = await db
    .select({ id: memberWork.memberId })
    .from(memberWork)
    .where(and(eq(memberWork.orgId, scope.orgId), eq(memberWork.managerId, scope.memberId)));
  return rows.map((r) => r.id);
}

/**
 * The requests the caller may decide (pending), or the latest decided ones, each with the share of
 * the member's team away on its busiest day if it were approved.
 */
export async function teamRequests(db: TExecutor, scope: TScope, status: 'pending' | 'decided') {
  const team = await teamOf(db, scope);
  if (team && team.length === 0) return { rows: [], canApproveAny: false, awayWarnPercent: 0 };
  const rows = await joined(db)
    .where(
      and(
        eq(leaveRequests.orgId, scope.orgId),
        ne(leaveRequests.memberId, scope.memberId),
        status === 'pending'
          ? eq(leaveRequests.status, 'pending')
          : inArray(leaveRequests.status, ['approved', 'rejected']),
        team ? inArray(leaveRequests.memberId, team) : undefined,
      ),
    )
    .orderBy(status === 'pending' ? asc(leaveRequests.startDate) : desc(leaveRequests.decidedAt))
    .limit(200);
  const settings = await getLeaveSettings(db, scope.orgId);
  const decidable = rows.filter((r) => status === 'decided' || mayDecide(scope, r));
  const withShare = await Promise.all(
    decidable.map(async ({ managerId, ...r }) => ({
      ...r,
      awayShare: status === 'pending' ? await awayShare(db, scope.orgId, r, managerId) : null,
    })),
  );
  return { rows: withShare, canApproveAny: canApproveAny(scope), awayWarnPercent: settings.awayWarnPercent };
}

/**
 * The largest share (0–100) of the member's team (those with the same manager; the whole firm when
 * they have none) away on one day of the request, counting the request itself.
 */
async function awayShare(
  db: TExecutor,
  orgId: string,
  r: { id: string; memberId: string; startDate: string; endDate: string },
  managerId: string | null,
): Promise<number> {
  const mates = managerId
    ? (
        await db
          .select({ id: memberWork.memberId })
          .from(memberWork)
          .innerJoin(members, and(eq(members.orgId, memberWork.orgId), eq(members.id, memberWork.memberId)))
          .where(
            and(
              eq(memberWork.orgId, orgId),
              eq(memberWork.managerId, managerId),
              eq(members.status, 'active'),
            ),
          )
      ).map((m) => m.id)
    : (
        await db
          .select({ id: members.id })
          .from(members)
          .where(and(eq(members.orgId, orgId), eq(members.status, 'active')))
      ).map((m) => m.id);
  const team = new Set([...mates, r.memberId]);
  const away = await requestsTouching(db, orgId, r.startDate, r.endDate, ['approved'], [...team]);
  let most = 0;
  for (const day of daysBetween(r.startDate, r.endDate)) {
    const off = new Set([r.memberId]);
    for (const a of away) if (a.startDate <= day && a.endDate >= day) off.add(a.memberId);
    most = Math.max(most, off.size);
  }
  return Math.round((most / team.size) * 100);
}

/** The team's leave (approved and pending) and the holidays between two days, for the calendar. */
export async function teamCalendar(db: TExecutor, scope: TScope, from: string, to: string) {
  const team = await teamOf(db, scope);
  const [requests, holidays] = await Promise.all([
    team && team.length === 0
      ? []
      : db
          .select({
            id: leaveRequests.id,
            memberName,
            typeName: leaveTypes.name,
            startDate: leaveRequests.startDate,
            endDate: leaveRequests.endDate,
            part: leaveRequests.part,
            status: leaveRequests.status,
          })
          .from(leaveRequests)
          .innerJoin(
            leaveTypes,
            and(eq(leaveTypes.orgId, leaveRequests.orgId), eq(leaveTypes.id, leaveRequests.leaveTypeId)),
          )
          .innerJoin(
            members,
            and(eq(members.orgId, leaveRequests.orgId), eq(members.id, leaveRequests.memberId)),
          )
          .where(
            and(
              eq(leaveRequests.orgId, scope.orgId),
              inArray(leaveRequests.status, ['pending', 'approved']),
              lte(leaveRequests.startDate, to),
              gte(leaveRequests.endDate, from),
              team ? inArray(leaveRequests.memberId, team) : undefined,
            ),
          )
          .orderBy(asc(leaveRequests.startDate), asc(memberName)),
    holidaysBetween(db, scope.orgId, from, to),
  ]);
  return { requests, holidays };
}

export type TAvailabilityInputs = {
  patterns: Map<string, TMemberPattern>;
  holidays: Awaited<ReturnType<typeof holidaysBetween>>;
  /** Approved leave touching from..to. */
  leave: { memberId: string; startDate: string; endDate: string; part: TLeavePart; minutes: number | null }[];
};

/**
 * Minutes each member can work each day from `from` to `to`: their work pattern, less their
 * office's holidays, less approved leave. Capacity planning and timesheets read this.
 */
export async function availableMinutes(
  db: TExecutor,
  orgId: string,
  memberIds: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, Record<string, number>>> {
  const [patterns, holidays, leave] = await Promise.all([
    patternsOf(db, orgId, memberIds),
    holidaysBetween(db, orgId, from, to),
    requestsTouching(db, orgId, from, to, ['approved'], memberIds),
  ]);
  return minutesFrom({ patterns, holidays, leave }, memberIds, from, to);
}

/** availableMinutes over inputs already read (a caller that needs them for more reads them once). */
export function minutesFrom(
  { patterns, holidays, leave }: TAvailabilityInputs,
  memberIds: readonly string[],
  from: string,
  to: string,
): Map<string, Record<string, number>> {
  const leaveOf = new Map<string, TAvailabilityInputs['leave']>();
  for (const l of leave) leaveOf.set(l.memberId, [...(leaveOf.get(l.memberId) ?? []), l]);
  const out = new Map<string, Record<string, number>>();
  for (const id of memberIds) {
    const pattern = patterns.get(id);
    if (!pattern) continue;
    const days = (leaveOf.get(id) ?? []).flatMap((l) =>
      daysBetween(l.startDate < from ? from : l.startDate, l.endDate > to ? to : l.endDate).map((date) => ({
        date,
        part: l.part,
        minutes: l.minutes,
      })),
    );
    out.set(id, availableMinutesByDay(from, to, pattern, holidaysForOffice(holidays, pattern.office), days));
  }
  return out;
}
