import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { addDays, weekStartOf } from '../../src/domain/days';
import type { TDb } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/sql';
import { runLeaveForOrg } from '../../src/server/features/leave';
import { type DemoCalendar, hashOf, inMumbai, isoWeekday } from './calendar';
import type { TClock, TClockStep } from './clock';
import { holidayCsv } from './holidays';
import { managersOf, type TLeaveKind, type TLeaveTypeIds, type TPlannedLeave } from './leave';
import type { TDemoPerson } from './people';
import { timesheetApproversOf } from './rates';
import type { TPersonSession } from './session';
import { dayOfWork, type TCandidateTask, type TCell, type TClientWork, type TMemberClients } from './time';

// The firm's days, one after another on the replay's clock: in the morning people send last week's
// timesheet if they have not, apply for leave and hear back from their manager; a preparer's
// manager approves (or now and then sends back) their weeks, and the admin the approvers' (rates.ts);
// during the day everyone at work records their hours in the week grid; on Friday evening most send
// the week. The leave job runs as the month
// turns, the admin imports next year's holidays in October and the owner locks last month's time
// on the tenth. What is left at the end is what a firm would show now: this week in draft, last week
// partly sent, nothing older waiting.

export type TOfficeContext = {
  db: TDb;
  orgId: string;
  clock: TClock;
  people: TDemoPerson[];
  sessionOf: (memberId: string) => TPersonSession;
  calendar: DemoCalendar;
  leaveTypes: TLeaveTypeIds;
  plans: TPlannedLeave[];
  clientsOf: TMemberClients;
  clientWork: TClientWork;
  /** The Monday the firm started recording time. */
  firstWeek: string;
  /** The firm's today and the moment the replay stops. */
  today: string;
  until: Date;
};

const WEEKDAY = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const FORGETFUL = 2;

type TRejection = { day: string; change: number };

export function openOffice(ctx: TOfficeContext) {
  const { calendar, people, today } = ctx;
  const api = (p: TDemoPerson | string) => ctx.sessionOf(typeof p === 'string' ? p : p.memberId).api;
  const managers = managersOf(people);
  const approvers = timesheetApproversOf(people, managers);
  const owner = people.find((p) => p.role === 'Owner') as TDemoPerson;
  const admin = people.find((p) => p.role === 'Admin') as TDemoPerson;
  const thisWeek = weekStartOf(today);
  const lastWeek = addDays(thisWeek, -7);
  // Two people have not sent last week yet (the approvers have not looked at it either).
  const forgetful = new Set(
    [people.filter((p) => p.role === 'Staff').at(-2), admin].slice(0, FORGETFUL).map((p) => p?.memberId),
  );
  const weeks = new Map<string, 'submitted' | 'approved' | 'rejected'>();
  const rejections = new Map<string, TRejection>();
  const expected = new Map<string, Map<string, number>>();
  const cells = new Map<string, TCell[]>();
  const candidates = new Map<string, TCandidateTask[]>();
  const requestOf = new Map<
    TPlannedLeave,
    { id: string; kind: TLeaveKind; startDate: string; endDate: string }
  >();
  const key = (memberId: string, day: string) => `${memberId}|${day}`;
  let ranFor = '';
  let lockedThrough = '';
  const importedYears = new Set<number>();

  /** The minutes the product expects of the member that day: their pattern less holidays and leave. */
  async function expectedOn(p: TDemoPerson, day: string) {
    const week = weekStartOf(day);
    let days = expected.get(key(p.memberId, week));
    if (!days) {
      const mine = await api(p).timesheets.myWeek({ weekStart: week });
      days = new Map(mine.days.map((d) => [d.date, d.expected]));
      expected.set(key(p.memberId, week), days);
    }
    return days.get(day) ?? 0;
  }
  const forget = (memberId: string) => {
    for (const k of expected.keys()) if (k.startsWith(`${memberId}|`)) expected.delete(k);
  };

  /** Each member's tasks due from the week on, and when they were done: what they work on. */
  async function tasksFrom(week: string) {
    let list = candidates.get(week);
    if (!list) {
      const result = await ctx.db.execute(sql`
        select a.member_id as "memberId", t.id, t.client_id as "clientId", t.due_date::text as due,
          t.completed_date as "completedAt"
        from task_assignees a join tasks t on t.org_id = a.org_id and t.id = a.task_id
        where a.org_id = ${ctx.orgId}::uuid and t.due_date between ${week}::date and ${addDays(week, 20)}::date
          and (t.completed_date is null or t.completed_date >= ${inMumbai(week, '00:00').toISOString()}::timestamptz)
        order by t.due_date, t.id`);
      list = rowsOf<TCandidateTask>(result).map((t) => ({
        ...t,
        completedAt: t.completedAt ? new Date(t.completedAt) : null,
      }));
      candidates.clear();
      candidates.set(week, list);
    }
    return list;
  }

  // ——— leave ———

  async function aroundDue(plan: TPlannedLeave) {
    const [from, to] = plan.aroundDue as [string, string];
    const result = await ctx.db.execute(sql`
      select t.due_date::text as due, count(*)::int as n
      from task_assignees a join tasks t on t.org_id = a.org_id and t.id = a.task_id
      where a.org_id = ${ctx.orgId}::uuid and a.member_id = ${plan.member.memberId}::uuid
        and t.status <> 'COMPLETED' and t.due_date between ${from}::date and ${to}::date
      group by t.due_date order by n desc, due`);
    const due = rowsOf<{ due: string }>(result)[0]?.due;
    if (!due) return { startDate: plan.startDate, endDate: plan.endDate };
    // From the working day on or before the due date to the next one after it.
    const id = plan.member.memberId;
    const start = calendar.works(id, due) ? due : calendar.workingDaysBefore(id, due, 1);
    const end = calendar.nextWorkingDay(id, addDays(due, 1)) ?? due;
    return start > today
      ? { startDate: start, endDate: end }
      : { startDate: plan.startDate, endDate: plan.endDate };
  }

  /** The apply form: the preview first, and another type when this one's balance is not enough. */
  async function apply(plan: TPlannedLeave) {
    const dates = plan.aroundDue
      ? await aroundDue(plan)
      : { startDate: plan.startDate, endDate: plan.endDate };
    const kinds: TLeaveKind[] =
      plan.part === 'hours'
        ? ['casual']
        : plan.kind === 'unpaid'
          ? ['unpaid']
          : plan.kind === 'casual'
            ? ['casual', 'earned', 'unpaid']
            : [plan.kind, 'casual', 'unpaid'];
    for (const kind of kinds) {
      if (kind === 'unpaid' && plan.part !== 'full') continue;
      const input = {
        leaveTypeId: ctx.leaveTypes[kind],
        ...dates,
        part: plan.part,
        minutes: plan.minutes,
        reason: plan.reason,
      };
      try {
        const preview = await api(plan.member).leave.requests.preview(input);
        if (preview.after < 0 && !preview.allowNegative) continue;
        const { id } = await api(plan.member).leave.requests.submit(input);
        requestOf.set(plan, { id, kind, ...dates });
        return;
      } catch (error) {
        // Longer than the type allows in a row, or nothing to take: the form says so; try another.
        if (error instanceof TRPCError && error.code === 'BAD_REQUEST') continue;
        throw error;
      }
    }
  }

  async function decide(plan: TPlannedLeave, by: TDemoPerson) {
    const request = requestOf.get(plan);
    if (!request) return;
    const approve = plan.outcome !== 'reject';
    const decided = await api(by).leave.requests.decide({
      requestId: request.id,
      approve,
      comment: approve ? undefined : plan.comment,
    });
    if (decided.status === 'pending') {
      // Long leave goes to a second approver, who decides the next day.
      const second = by === owner || plan.member === owner ? admin : owner;
      const day = calendar.nextWorkingDay(second.memberId, addDays(plan.decideOn, 1)) ?? plan.decideOn;
      later.push({ day, run: () => decide(plan, second) });
      return;
    }
    if (decided.status === 'approved') {
      calendar.approved(plan.member.memberId, request.startDate, request.endDate, plan.part);
      forget(plan.member.memberId);
    }
  }

  async function cancel(plan: TPlannedLeave) {
    const request = requestOf.get(plan);
    if (!request) return;
    await api(plan.member).leave.requests.cancel({ requestId: request.id });
    calendar.cancelled(plan.member.memberId, request.startDate, request.endDate);
    forget(plan.member.memberId);
  }

  const later: { day: string; run: () => Promise<void> }[] = [];

  async function leaveOf(day: string) {
    for (const plan of ctx.plans) if (plan.appliedOn === day) await apply(plan);
    for (const plan of ctx.plans) {
      if (plan.decideOn !== day || plan.outcome === 'pending' || plan.outcome === 'withdraw') continue;
      await decide(plan, managers.get(plan.member.memberId) as TDemoPerson);
    }
    for (const job of later.filter((j) => j.day === day)) await job.run();
    for (const plan of ctx.plans) if (plan.cancelOn === day) await cancel(plan);
  }

  // ——— timesheets ———

  const sendable = (memberId: string, week: string) =>
    week >= ctx.firstWeek && week !== thisWeek && !(week === lastWeek && forgetful.has(memberId));

  async function submit(p: TDemoPerson, week: string) {
    await api(p).timesheets.submitWeek({ weekStart: week });
    weeks.set(key(p.memberId, week), 'submitted');
  }

  /** Last week (or older ones after leave) sent in the morning; a week sent back, corrected and sent again. */
  async function morningSubmissions(day: string) {
    const current = weekStartOf(day);
    for (const p of people) {
      if (!calendar.atWork(p.memberId, day)) continue;
      for (let week = ctx.firstWeek; week < current; week = addDays(week, 7)) {
        const state = weeks.get(key(p.memberId, week));
        if (state === 'rejected') {
          const fix = rejections.get(key(p.memberId, week));
          const cell = fix && cells.get(key(p.memberId, fix.day))?.[0];
          // A day the lock has closed meanwhile stays as it was: the week is sent again as it stands.
          if (cell && fix && fix.day > lockedThrough) {
            cell.minutes = Math.max(30, cell.minutes + (fix?.change ?? 0));
            await api(p).timesheets.setCell(cell.input(cell.minutes));
          }
          await submit(p, week);
        } else if (!state && sendable(p.memberId, week)) {
          await submit(p, week);
        }
      }
    }
  }

  /** An approver's look at the team's weeks: most approved together, now and then one sent back. */
  async function approvals(day: string) {
    const weekday = isoWeekday(day);
    if (weekday < 2 || weekday > 5) return;
    const current = weekStartOf(day);
    for (const approver of people) {
      const team = people.filter((p) => approvers.get(p.memberId) === approver);
      if (!team.length || !calendar.atWork(approver.memberId, day)) continue;
      const ready = new Map<string, string[]>();
      for (const p of team) {
        for (let week = ctx.firstWeek; week < current && week < lastWeek; week = addDays(week, 7)) {
          if (weeks.get(key(p.memberId, week)) !== 'submitted') continue;
          const k = key(p.memberId, week);
          const worked = [0, 1, 2, 3, 4]
            .map((i) => addDays(week, i))
            .filter((d) => cells.get(key(p.memberId, d)));
          // One week in forty goes back (the first that may, always), never a recent one.
          const sendBack =
            (hashOf(`reject:${k}`) % 40 === 0 || rejections.size === 0) &&
            !rejections.has(k) &&
            week <= addDays(thisWeek, -21);
          const on = worked[hashOf(k) % Math.max(1, worked.length)];
          if (sendBack && on) {
            const total = (cells.get(key(p.memberId, on)) ?? []).reduce((s, c) => s + c.minutes, 0);
            const short = total < 450;
            const name = WEEKDAY[isoWeekday(on)];
            const comment = short
              ? `${name} looks short: you were in all day. Please add the time you spent.`
              : `${name} has more hours than you were in the office. Please correct it.`;
            await api(approver).timesheets.reject({ weekStart: week, memberId: p.memberId, comment });
            weeks.set(k, 'rejected');
            rejections.set(k, { day: on, change: short ? 60 : -60 });
            continue;
          }
          ready.set(week, [...(ready.get(week) ?? []), p.memberId]);
        }
      }
      for (const [week, memberIds] of ready) {
        await api(approver).timesheets.approve({ weekStart: week, memberIds });
        for (const id of memberIds) weeks.set(key(id, week), 'approved');
      }
    }
  }

  /** Most send the week at the end of their last working day of it; the rest on Monday. */
  async function eveningSubmissions(day: string) {
    const week = weekStartOf(day);
    for (const p of people) {
      let lastDayOfWeek = true;
      for (let d = addDays(day, 1); weekStartOf(d) === week; d = addDays(d, 1))
        if (calendar.works(p.memberId, d)) lastDayOfWeek = false;
      if (!lastDayOfWeek || !calendar.atWork(p.memberId, day) || !sendable(p.memberId, week)) continue;
      if (weeks.has(key(p.memberId, week)) || hashOf(`friday:${p.memberId}:${week}`) % 10 >= 7) continue;
      if (week === thisWeek) continue;
      await submit(p, week);
    }
  }

  async function record(day: string) {
    const tasks = await tasksFrom(weekStartOf(day));
    await Promise.all(
      people.map(async (p) => {
        const minutes = await expectedOn(p, day);
        if (!minutes) return;
        const mine = dayOfWork(p, day, minutes, tasks, ctx.clientsOf, ctx.clientWork);
        for (const cell of mine) {
          if (cell.nonBillable)
            await api(p).timesheets.create({ ...cell.input(cell.minutes), billable: false });
          else await api(p).timesheets.setCell(cell.input(cell.minutes));
        }
        if (mine.length) cells.set(key(p.memberId, day), mine);
      }),
    );
  }

  // ——— the firm's housekeeping ———

  async function housekeeping(day: string) {
    if (day.slice(0, 7) !== ranFor) {
      // The leave job, as it runs on the first of the month: accrual, and the year end in January.
      await runLeaveForOrg(ctx.db, ctx.orgId, day);
      ranFor = day.slice(0, 7);
    }
    if (!calendar.firmOpen(day)) return;
    const year = Number(day.slice(0, 4));
    if (Number(day.slice(5, 7)) >= 10 && !importedYears.has(year + 1)) {
      await api(admin).leave.holidays.import({ csv: holidayCsv(year + 1), office: null });
      importedYears.add(year + 1);
    }
    const monthEnd = addDays(`${day.slice(0, 7)}-01`, -1);
    if (Number(day.slice(8, 10)) >= 10 && lockedThrough < monthEnd && monthEnd >= ctx.firstWeek) {
      await api(owner).timesheets.setLock({ lockDate: monthEnd, graceDays: 5 });
      lockedThrough = monthEnd;
    }
  }

  return {
    /** Holidays the firm has for these years already (imported when it was set up). */
    imported(years: number[]) {
      for (const y of years) importedYears.add(y);
    },
    /** One day of the firm, for the clock from half past nine to seven in Mumbai (or until now). */
    day(day: string): TClockStep | null {
      const from = inMumbai(day, '09:30');
      if (from >= ctx.until || day < ctx.firstWeek) return null;
      const to = new Date(Math.min(inMumbai(day, '19:00').getTime(), ctx.until.getTime()));
      return {
        from,
        to,
        run: async () => {
          await housekeeping(day);
          // Leave is asked for from home at the weekend too; the rest waits for Monday.
          if (isoWeekday(day) > 5) return leaveOf(day);
          await morningSubmissions(day);
          await leaveOf(day);
          await approvals(day);
          // Today's hours are recorded at the end of the day: not yet, before half past five.
          if (day < today || ctx.until >= inMumbai(day, '17:30')) await record(day);
          await eveningSubmissions(day);
        },
      };
    },
    /** Now: someone's timer runs on a task they are working on, and last week's stragglers are reminded. */
    async finish(now: Date) {
      const kavya = people.filter((p) => p.role === 'Staff')[1];
      const tasks = await tasksFrom(thisWeek);
      const task = tasks.find((t) => t.memberId === kavya?.memberId && !t.completedAt);
      if (kavya && task) {
        const at = new Date(now.getTime() - 75 * 60_000);
        await ctx.clock.during(at, new Date(at.getTime() + 1000), () =>
          api(kavya).timesheets.timer.start({ taskId: task.id, note: '' }),
        );
      }
      if (lastWeek >= ctx.firstWeek) {
        const at = new Date(now.getTime() - 3 * 3_600_000);
        await ctx.clock.during(at, new Date(at.getTime() + 1000), () =>
          api(owner).timesheets.remind({ weekStart: lastWeek }),
        );
      }
    },
  };
}
