import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import { daysBetween } from '../../../domain/days';
import { isWorkingDay } from '../../../domain/leave-rules';
import type { TExecutor } from '../../db/client';
import { leaveRequests, leaveTypes, members } from '../../db/schema';
import { memberName } from '../../db/sql';
import { holidaysBetween } from './holidays';
import { minutesFrom } from './lists';
import { patternsOf } from './work';

export type TAbsence = { kind: 'leave' | 'holiday'; name: string };

export type TMemberAvailability = {
  memberId: string;
  name: string;
  /** Minutes the member can work that day. */
  minutes: number;
  /** A working day with nothing left of it: on leave or a holiday (a day off by pattern is not "away"). */
  away: boolean;
  /** Why some or all of the day is gone, when it is approved leave or a holiday. */
  absence: TAbsence | null;
};

/**
 * Each active member's capacity on one day, by name: what the assignee picker shows beside each
 * person. Ids of another firm, or of members who are not active, are simply not answered.
 */
export async function availabilityOn(
  db: TExecutor,
  orgId: string,
  day: string,
  memberIds?: readonly string[],
): Promise<TMemberAvailability[]> {
  const people = await db
    .select({ id: members.id, name: memberName })
    .from(members)
    .where(
      and(
        eq(members.orgId, orgId),
        eq(members.status, 'active'),
        memberIds ? inArray(members.id, [...memberIds]) : undefined,
      ),
    )
    .orderBy(asc(memberName));
  if (people.length === 0) return [];
  const ids = people.map((p) => p.id);
  // One read of patterns, holidays and the day's leave serves both the minutes and the reasons.
  const [patterns, holidays, leave] = await Promise.all([
    patternsOf(db, orgId, ids),
    holidaysBetween(db, orgId, day, day),
    approvedLeaveBetween(db, orgId, ids, day, day),
  ]);
  const minutes = minutesFrom({ patterns, holidays, leave }, ids, day, day);
  return people.map((p) => {
    const pattern = patterns.get(p.id);
    const free = minutes.get(p.id)?.[day] ?? 0;
    const own = leave.find((l) => l.memberId === p.id);
    const holiday = holidays.find((h) => h.office === null || h.office === pattern?.office);
    const absence: TAbsence | null = own
      ? { kind: 'leave', name: own.typeName }
      : holiday
        ? { kind: 'holiday', name: holiday.name }
        : null;
    const working = pattern ? isWorkingDay(day, pattern) : false;
    return {
      memberId: p.id,
      name: p.name,
      minutes: free,
      away: working && free === 0 && absence !== null,
      absence,
    };
  });
}

/** A member's approved leave starting between two days (both included), soonest first. */
export function approvedLeaveStarting(
  db: TExecutor,
  orgId: string,
  memberId: string,
  from: string,
  to: string,
) {
  return db
    .select({
      id: leaveRequests.id,
      typeName: leaveTypes.name,
      startDate: leaveRequests.startDate,
      endDate: leaveRequests.endDate,
      part: leaveRequests.part,
    })
    .from(leaveRequests)
    .innerJoin(
      leaveTypes,
      and(eq(leaveTypes.orgId, leaveRequests.orgId), eq(leaveTypes.id, leaveRequests.leaveTypeId)),
    )
    .where(
      and(
        eq(leaveRequests.orgId, orgId),
        eq(leaveRequests.memberId, memberId),
        eq(leaveRequests.status, 'approved'),
        gte(leaveRequests.startDate, from),
        lte(leaveRequests.startDate, to),
      ),
    )
    .orderBy(asc(leaveRequests.startDate));
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export type TMemberDay = {
  date: string;
  /** Minutes the member can work that day (availableMinutes' figure). */
  expected: number;
  /** A working day by the member's pattern. */
  working: boolean;
  /** Approved leave or a holiday taking some or all of the day. */
  absence: TAbsence | null;
};

/**
 * Each member's days from..to with why any of them is short: what an approver checks a week's time
 * against. Members without a work pattern are not answered.
 */
export async function memberDays(
  db: TExecutor,
  orgId: string,
  memberIds: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, TMemberDay[]>> {
  if (memberIds.length === 0) return new Map();
  const [patterns, holidays, leave] = await Promise.all([
    patternsOf(db, orgId, memberIds),
    holidaysBetween(db, orgId, from, to),
    approvedLeaveBetween(db, orgId, memberIds, from, to),
  ]);
  const minutes = minutesFrom({ patterns, holidays, leave }, memberIds, from, to);
  // By member and by day first: a 500-member week would otherwise scan every request per day.
  const leaveOf = groupBy(leave, (l) => l.memberId);
  const holidaysOn = groupBy(holidays, (h) => h.date);
  const days = daysBetween(from, to);
  const out = new Map<string, TMemberDay[]>();
  for (const id of memberIds) {
    const pattern = patterns.get(id);
    const free = minutes.get(id);
    if (!pattern || !free) continue;
    const mine = leaveOf.get(id) ?? [];
    out.set(
      id,
      days.map((date) => {
        const own = mine.find((l) => l.startDate <= date && l.endDate >= date);
        const holiday = holidaysOn.get(date)?.find((h) => h.office === null || h.office === pattern.office);
        return {
          date,
          expected: free[date] ?? 0,
          working: isWorkingDay(date, pattern),
          absence: own
            ? { kind: 'leave', name: own.typeName }
            : holiday
              ? { kind: 'holiday', name: holiday.name }
              : null,
        };
      }),
    );
  }
  return out;
}

/** The members' approved leave overlapping from..to, with its type's name. */
function approvedLeaveBetween(
  db: TExecutor,
  orgId: string,
  memberIds: readonly string[],
  from: string,
  to: string,
) {
  return db
    .select({
      memberId: leaveRequests.memberId,
      typeName: leaveTypes.name,
      startDate: leaveRequests.startDate,
      endDate: leaveRequests.endDate,
      part: leaveRequests.part,
      minutes: leaveRequests.minutes,
    })
    .from(leaveRequests)
    .innerJoin(
      leaveTypes,
      and(eq(leaveTypes.orgId, leaveRequests.orgId), eq(leaveTypes.id, leaveRequests.leaveTypeId)),
    )
    .where(
      and(
        eq(leaveRequests.orgId, orgId),
        eq(leaveRequests.status, 'approved'),
        lte(leaveRequests.startDate, to),
        gte(leaveRequests.endDate, from),
        inArray(leaveRequests.memberId, [...memberIds]),
      ),
    );
}
