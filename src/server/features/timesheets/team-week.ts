import { TRPCError } from '@trpc/server';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { addDays, weekDays } from '../../../domain/days';
import { dayFlags } from '../../../domain/timesheet-approval';
import type { TWeekStatus } from '../../../domain/timesheets';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { timesheetEntries, timesheetWeeks } from '../../db/schema';
import { memberDays, type TMemberDay } from '../leave';
import { approvalRules, decider, peopleOf } from './approvers';
import { seesMoney } from './rates';
import { weekStatus } from './rules';
import { entriesOf } from './week';
import { type TWeekMoney, weekMoney } from './week-money';

const NO_MONEY: TWeekMoney = { billable: 0, cost: 0, estimate: false, unratedMinutes: 0 };

/** A day of a member's week: time against what was expected, and why an approver should look twice. */
function flaggedDay(date: string, minutes: number, fact: TMemberDay | undefined, dailyLimitMinutes: number) {
  const expected = fact?.expected ?? 0;
  const absence = fact?.absence ?? null;
  const flags = dayFlags(
    { date, minutes, expected, working: fact?.working ?? true, absence },
    dailyLimitMinutes,
  );
  return { date, minutes, expected, absence, flags };
}

/**
 * Every active member × the week's days: hours recorded against hours expected, the days an
 * approver should look at twice, the week's state and whether the caller may decide it; and, only
 * for a caller who sees money, what each week is worth and costs.
 */
export async function teamWeek(db: TExecutor, scope: TScope, weekStart: string) {
  const last = addDays(weekStart, 6);
  // The minutes and the weeks need no member ids: they run alongside the people and their days,
  // rather than after them.
  const peopleAndDays = async () => {
    const people = (await peopleOf(db, scope.orgId)).filter((p) => p.active);
    const ids = people.map((p) => p.id);
    const days = await memberDays(db, scope.orgId, ids, weekStart, last);
    return { people, days };
  };
  const [totals, weeks, { people, days: leaveDays }, rules, money] = await Promise.all([
    db
      .select({
        memberId: timesheetEntries.memberId,
        date: timesheetEntries.date,
        minutes: sql<number>`sum(${timesheetEntries.minutes})::int`,
      })
      .from(timesheetEntries)
      .where(
        and(
          eq(timesheetEntries.orgId, scope.orgId),
          gte(timesheetEntries.date, weekStart),
          lte(timesheetEntries.date, last),
        ),
      )
      // Day first, as timesheet_entries_org_date_minutes_idx orders them: the sums stream out of
      // the index-only scan instead of going through a hash of 50,000 rows.
      .groupBy(timesheetEntries.date, timesheetEntries.memberId),
    db
      .select({
        memberId: timesheetWeeks.memberId,
        status: timesheetWeeks.status,
        comment: timesheetWeeks.comment,
      })
      .from(timesheetWeeks)
      .where(and(eq(timesheetWeeks.orgId, scope.orgId), eq(timesheetWeeks.weekStart, weekStart))),
    peopleAndDays(),
    approvalRules(db, scope.orgId),
    seesMoney(scope) ? weekMoney(db, scope.orgId, weekStart, last) : null,
  ]);
  const recorded = new Map<string, Map<string, number>>();
  for (const t of totals) {
    const m = recorded.get(t.memberId) ?? new Map<string, number>();
    m.set(t.date, t.minutes);
    recorded.set(t.memberId, m);
  }
  const state = new Map(weeks.map((w) => [w.memberId, w]));
  const days = weekDays(weekStart);
  return {
    weekStart,
    days,
    dailyLimitMinutes: rules.dailyLimitMinutes,
    members: people.map((p) => {
      const facts = new Map((leaveDays.get(p.id) ?? []).map((d) => [d.date, d]));
      const decision = decider(scope, p, rules);
      return {
        id: p.id,
        name: p.name,
        status: (state.get(p.id)?.status ?? 'open') as TWeekStatus,
        comment: state.get(p.id)?.comment ?? null,
        /** Null when the caller may approve or send back this week; otherwise why not. */
        refusal: decision.may ? null : decision.reason,
        days: days.map((date) =>
          flaggedDay(date, recorded.get(p.id)?.get(date) ?? 0, facts.get(date), rules.dailyLimitMinutes),
        ),
        // Absent, not empty, for a caller without the right: the answer carries no money at all.
        ...(money ? { money: money.get(p.id) ?? NO_MONEY } : {}),
      };
    }),
  };
}

/**
 * One member's week as their approver opens it from the team's row: every entry, each day with
 * its flags, and whether the caller may decide it. Another firm's member answers NOT_FOUND.
 */
export async function memberWeek(db: TExecutor, scope: TScope, memberId: string, weekStart: string) {
  const last = addDays(weekStart, 6);
  const [people, rules, entries, week, leaveDays] = await Promise.all([
    peopleOf(db, scope.orgId, [memberId]),
    approvalRules(db, scope.orgId),
    entriesOf(db, scope.orgId, memberId, weekStart, last),
    weekStatus(db, scope.orgId, memberId, weekStart),
    memberDays(db, scope.orgId, [memberId], weekStart, last),
  ]);
  const [person] = people;
  if (!person) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  const facts = new Map((leaveDays.get(memberId) ?? []).map((d) => [d.date, d]));
  const decision = decider(scope, person, rules);
  return {
    weekStart,
    member: { id: person.id, name: person.name },
    status: week.status as TWeekStatus,
    comment: week.comment,
    refusal: decision.may ? null : decision.reason,
    dailyLimitMinutes: rules.dailyLimitMinutes,
    days: weekDays(weekStart).map((date) => {
      const minutes = entries.filter((e) => e.date === date).reduce((sum, e) => sum + e.minutes, 0);
      return flaggedDay(date, minutes, facts.get(date), rules.dailyLimitMinutes);
    }),
    entries,
  };
}
