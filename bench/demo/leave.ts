import { addDays } from '../../src/domain/days';
import { rng } from '../generate-util';
import { type DemoCalendar, hashOf, type TDayPart } from './calendar';
import { holidayCsv } from './holidays';
import type { TDemoPerson } from './people';
import type { TPersonSession } from './session';

// Leave at the demo firm, set up on the admin screens when the firm starts (its work pattern, the
// leave types an Indian practice has, who manages whom, the holidays imported from the state's
// list, the balances brought from the old leave register) and taken over the year on the apply
// form and decided on the team's leave screen: a long holiday each, casual days and hours, sick
// days, some refused with a reason and asked again for other dates, some withdrawn, and what stands
// now: leave waiting for a decision, leave coming up (and one approved then cancelled).

export type TLeaveKind = 'earned' | 'sick' | 'casual' | 'unpaid';

const TYPES = {
  earned: {
    name: 'Earned leave',
    unit: 'half_day',
    accrual: 'monthly',
    allowance: 15,
    carryForwardCap: 30,
    maxConsecutiveDays: 21,
  },
  sick: { name: 'Sick leave', unit: 'half_day', accrual: 'yearly', allowance: 8, carryForwardCap: 0 },
  casual: {
    name: 'Casual leave',
    unit: 'hour',
    accrual: 'yearly',
    allowance: 56,
    carryForwardCap: 0,
    maxConsecutiveDays: 3,
  },
  unpaid: {
    name: 'Unpaid leave',
    paid: false,
    unit: 'day',
    accrual: 'yearly',
    allowance: 0,
    carryForwardCap: 0,
    allowNegative: true,
    maxConsecutiveDays: 30,
  },
} as const;

export type TLeaveTypeIds = Record<TLeaveKind, string>;

/** Who decides a member's leave and approves their timesheet. */
export function managersOf(people: TDemoPerson[]) {
  const role = (r: TDemoPerson['role']) => people.filter((p) => p.role === r);
  const [owner] = role('Owner');
  const [admin] = role('Admin');
  const managers = role('Manager');
  if (!owner || !admin || managers.length < 2) throw new Error('demo people missing');
  const staff = role('Staff');
  const of = new Map<string, TDemoPerson>();
  of.set(owner.memberId, admin);
  of.set(admin.memberId, owner);
  for (const m of managers) of.set(m.memberId, owner);
  // A preparer reports to the manager who reviews their clients (clients.ts pairs them so).
  for (const [i, s] of staff.entries()) of.set(s.memberId, managers[i % managers.length] as TDemoPerson);
  return of;
}

/** Neha works a four-day week while she studies for her CA exams; everyone else the firm's. */
export const FIRM_WEEK = [1, 2, 3, 4, 5];
export const FOUR_DAY_WEEK = [1, 2, 3, 4];
export const partTimer = (people: TDemoPerson[]) => people.filter((p) => p.role === 'Staff').at(-1);

/**
 * The firm's leave set-up, by its admin: the work pattern, the types, each member's
 * manager and office, this year's and next year's holidays, and the opening balances of earned
 * leave from the register the firm kept before.
 */
export async function setUpLeave(
  admin: TPersonSession,
  people: TDemoPerson[],
  year: number,
): Promise<TLeaveTypeIds> {
  await admin.api.leave.setup.update({
    workingDays: FIRM_WEEK,
    minutesPerDay: 480,
    offices: ['Mumbai'],
    secondLevelAfterDays: 7,
    awayWarnPercent: 30,
  });
  const ids = {} as TLeaveTypeIds;
  for (const [kind, fields] of Object.entries(TYPES) as [TLeaveKind, (typeof TYPES)[TLeaveKind]][]) {
    ids[kind] = (await admin.api.leave.types.create(fields)).id;
  }
  const managers = managersOf(people);
  const fourDays = partTimer(people);
  for (const p of people) {
    await admin.api.leave.setup.updateMember({
      memberId: p.memberId,
      managerId: managers.get(p.memberId)?.memberId ?? null,
      office: 'Mumbai',
      workingDays: p === fourDays ? FOUR_DAY_WEEK : null,
      minutesPerDay: null,
    });
  }
  for (const y of [year, year + 1])
    await admin.api.leave.holidays.import({ csv: holidayCsv(y), office: null });
  for (const p of people) {
    const opening = 6 + (hashOf(`opening:${p.email}`) % 7);
    await admin.api.leave.setup.allocate({
      memberId: p.memberId,
      leaveTypeId: ids.earned,
      year,
      amount: p.role === 'Owner' ? 0.5 * opening : opening,
      note: 'Balance brought from the leave register',
    });
  }
  return ids;
}

export type TPlannedLeave = {
  member: TDemoPerson;
  kind: TLeaveKind;
  startDate: string;
  endDate: string;
  part: TDayPart;
  minutes?: number;
  reason: string;
  appliedOn: string;
  /** approve, reject (with `comment`), withdrawn while pending, left pending, or approved and cancelled later. */
  outcome: 'approve' | 'reject' | 'withdraw' | 'pending' | 'cancelLater';
  decideOn: string;
  comment?: string;
  cancelOn?: string;
  /** Dates chosen on the day of applying: around the member's busiest due date in this range. */
  aroundDue?: [string, string];
};

const REASONS: Record<TLeaveKind, string[]> = {
  earned: [
    'Family holiday in Kerala',
    'Going home to Nashik for a family function',
    'Trip to Rajasthan with my parents',
    'Cousin’s wedding in Indore',
    'Family pilgrimage to Shirdi',
  ],
  casual: [
    'Personal work',
    'Bank and passport office visit',
    'Child’s school annual day',
    'Moving house',
    'Parent’s hospital appointment',
  ],
  sick: ['Fever', 'Viral infection, doctor advised rest', 'Migraine', 'Stomach upset', 'Dental surgery'],
  unpaid: ['CA Intermediate exams'],
};
const REFUSALS = [
  'The GST returns are due that week: can you take a day after the 20th instead?',
  'We have the audit files closing that week. Please pick dates next week.',
  'Two of the team are already away those days. Could you move it by a week?',
];

/**
 * The year's leave, planned from `firstDay` (the firm's first week with Practice) to `today` and a
 * few weeks ahead. Each person's requests never overlap one another; deadlines and the rest of the
 * team's leave shape when they are refused.
 */
export function planLeave(people: TDemoPerson[], calendar: DemoCalendar, firstDay: string, today: string) {
  const plans: TPlannedLeave[] = [];
  const taken = new Map<string, Set<string>>();
  const managers = managersOf(people);
  const staff = people.filter((p) => p.role === 'Staff');
  const [owner] = people.filter((p) => p.role === 'Owner');
  const [admin] = people.filter((p) => p.role === 'Admin');
  const mgrs = people.filter((p) => p.role === 'Manager');
  const [rohan, kavya, sanjay, neha] = staff;
  const [priya, vikram] = mgrs;
  if (!owner || !admin || !priya || !vikram || !rohan || !kavya || !sanjay || !neha)
    throw new Error('demo people missing');
  const horizon = addDays(today, 45);

  /** Adds a request if its days are free, it starts on a working day and was asked for in the window. */
  function add(
    plan: Omit<TPlannedLeave, 'decideOn' | 'appliedOn'> & { appliedOn?: string; decideOn?: string },
  ) {
    const { member, startDate, endDate } = plan;
    if (startDate.slice(0, 4) !== endDate.slice(0, 4)) return false;
    if (startDate <= firstDay || endDate > horizon || !calendar.works(member.memberId, startDate))
      return false;
    const mine = taken.get(member.memberId) ?? new Set<string>();
    for (let d = startDate; d <= endDate; d = addDays(d, 1)) if (mine.has(d)) return false;
    let appliedOn = plan.appliedOn ?? startDate;
    // Nobody applies before the firm used Practice, or for next year before it has begun.
    if (appliedOn <= firstDay)
      appliedOn = calendar.nextWorkingDay(member.memberId, addDays(firstDay, 1)) ?? startDate;
    if (appliedOn.slice(0, 4) !== startDate.slice(0, 4))
      appliedOn = calendar.nextWorkingDay(member.memberId, `${startDate.slice(0, 4)}-01-02`) ?? startDate;
    if (appliedOn > startDate || appliedOn > today) return false;
    const decider = managers.get(member.memberId) as TDemoPerson;
    const decideOn =
      plan.decideOn ??
      (plan.part === 'full' && plan.kind === 'sick'
        ? appliedOn
        : (calendar.nextWorkingDay(decider.memberId, addDays(appliedOn, 1)) ?? appliedOn));
    if (
      plan.outcome !== 'pending' &&
      plan.outcome !== 'withdraw' &&
      decideOn > startDate &&
      plan.kind !== 'sick'
    )
      return false;
    for (let d = startDate; d <= endDate; d = addDays(d, 1)) mine.add(d);
    taken.set(member.memberId, mine);
    plans.push({ ...plan, appliedOn, decideOn: decideOn > today ? today : decideOn });
    return true;
  }
  /** The working day `n` of the member's working days after `day`. */
  const ahead = (member: TDemoPerson, day: string, n: number) => {
    let d = day;
    for (let left = n; left > 0; ) {
      d = addDays(d, 1);
      if (calendar.works(member.memberId, d)) left--;
    }
    return d;
  };
  const reason = (kind: TLeaveKind, n: number) => REASONS[kind][n % REASONS[kind].length] as string;

  // What stands now. Rohan is away soon, with work due while he is (his home says so).
  add({
    member: rohan,
    kind: 'earned',
    startDate: ahead(rohan, today, 3),
    endDate: ahead(rohan, today, 5),
    part: 'full',
    reason: 'Going home to Nashik for a family function',
    appliedOn: calendar.workingDaysBefore(rohan.memberId, today, 2),
    outcome: 'approve',
    aroundDue: [addDays(today, 4), addDays(today, 13)],
  });
  add({
    member: priya,
    kind: 'earned',
    startDate: ahead(priya, today, 15),
    endDate: ahead(priya, today, 17),
    part: 'full',
    reason: 'Trip to Rajasthan with my parents',
    appliedOn: calendar.workingDaysBefore(priya.memberId, today, 1),
    outcome: 'pending',
  });
  add({
    member: owner,
    kind: 'earned',
    startDate: ahead(owner, today, 20),
    endDate: ahead(owner, today, 22),
    part: 'full',
    reason: 'Family holiday in Kerala',
    appliedOn: today,
    outcome: 'pending',
  });
  add({
    member: sanjay,
    kind: 'casual',
    startDate: ahead(sanjay, today, 5),
    endDate: ahead(sanjay, today, 5),
    part: 'full',
    reason: 'Bank and passport office visit',
    appliedOn: calendar.workingDaysBefore(sanjay.memberId, today, 1),
    outcome: 'pending',
  });
  add({
    member: kavya,
    kind: 'casual',
    startDate: ahead(kavya, today, 8),
    endDate: ahead(kavya, today, 8),
    part: 'full',
    reason: 'Moving house',
    appliedOn: calendar.workingDaysBefore(kavya.memberId, today, 6),
    outcome: 'cancelLater',
    cancelOn: calendar.workingDaysBefore(kavya.memberId, today, 1),
  });
  add({
    member: neha,
    kind: 'earned',
    startDate: ahead(neha, today, 10),
    endDate: ahead(neha, today, 13),
    part: 'full',
    reason: 'Cousin’s wedding in Indore',
    appliedOn: calendar.workingDaysBefore(neha.memberId, today, 5),
    outcome: 'approve',
  });
  if (calendar.works(vikram.memberId, today))
    add({
      member: vikram,
      kind: 'sick',
      startDate: today,
      endDate: today,
      part: 'full',
      reason: 'Fever',
      outcome: 'approve',
    });
  add({
    member: admin,
    kind: 'casual',
    startDate: ahead(admin, today, 1),
    endDate: ahead(admin, today, 1),
    part: 'second_half',
    reason: 'Parent’s hospital appointment',
    appliedOn: calendar.workingDaysBefore(admin.memberId, today, 3),
    outcome: 'approve',
  });
  // Refused for a busy week, asked again a week later and approved.
  const refusedOn = calendar.workingDaysBefore(sanjay.memberId, today, 15);
  if (
    add({
      member: sanjay,
      kind: 'earned',
      startDate: refusedOn,
      endDate: ahead(sanjay, refusedOn, 1),
      part: 'full',
      reason: 'Going home to Nashik for a family function',
      appliedOn: calendar.workingDaysBefore(sanjay.memberId, refusedOn, 6),
      outcome: 'reject',
      comment: REFUSALS[2],
    })
  ) {
    const again = ahead(sanjay, refusedOn, 5);
    add({
      member: sanjay,
      kind: 'earned',
      startDate: again,
      endDate: ahead(sanjay, again, 1),
      part: 'full',
      reason: 'Going home to Nashik for a family function (moved by a week)',
      appliedOn: calendar.workingDaysBefore(sanjay.memberId, refusedOn, 4),
      outcome: 'approve',
    });
  }
  const withdrawn = calendar.workingDaysBefore(neha.memberId, today, 6);
  add({
    member: neha,
    kind: 'casual',
    startDate: withdrawn,
    endDate: withdrawn,
    part: 'hours',
    minutes: 180,
    reason: 'Child’s school annual day',
    appliedOn: calendar.workingDaysBefore(neha.memberId, withdrawn, 4),
    outcome: 'withdraw',
    cancelOn: calendar.workingDaysBefore(neha.memberId, withdrawn, 2),
  });
  // Kavya's wedding: two weeks, more than the firm's seven days, so it needs a second approval.
  const wedding = calendar.workingDaysBefore(kavya.memberId, today, 16);
  add({
    member: kavya,
    kind: 'earned',
    startDate: wedding,
    endDate: ahead(kavya, wedding, 9),
    part: 'full',
    reason: 'My wedding',
    appliedOn: calendar.workingDaysBefore(kavya.memberId, wedding, 22),
    outcome: 'approve',
  });

  // The year before: everyone's long holiday, casual days and hours, sick days, a refusal now and
  // then and a request withdrawn, spread over the working days up to a fortnight ago.
  const until = addDays(today, -14);
  const weeks = Math.floor((Date.parse(until) - Date.parse(firstDay)) / (7 * 86_400_000));
  if (weeks < 4) return plans;
  for (const person of people) {
    const random = rng(hashOf(`leave:${person.email}`));
    const day = () => {
      const d = addDays(firstDay, 7 + Math.floor(random() * (weeks - 1) * 7));
      return calendar.nextWorkingDay(person.memberId, d) ?? d;
    };
    const times = (perYear: number) => Math.floor((perYear * weeks) / 52 + random());
    const id = person.memberId;
    if (person !== kavya) {
      for (let tries = 0; tries < 6; tries++) {
        const start = day();
        const length = 3 + Math.floor(random() * 4);
        const plan = {
          member: person,
          kind: 'earned' as const,
          startDate: start,
          endDate: ahead(person, start, length - 1),
          part: 'full' as const,
          reason: reason('earned', hashOf(start)),
          appliedOn: calendar.workingDaysBefore(id, start, 15 + Math.floor(random() * 10)),
          outcome: 'approve' as const,
        };
        if (plan.endDate <= until && add(plan)) break;
      }
    }
    const each = (perYear: number, make: (start: string, n: number) => Parameters<typeof add>[0]) => {
      for (let n = 0, left = times(perYear); left > 0 && n < 20; n++) {
        const plan = make(day(), n);
        if (plan.endDate <= until && add(plan)) left--;
      }
    };
    each(2, (start, n) => ({
      member: person,
      kind: 'casual',
      startDate: start,
      endDate: start,
      part: 'full',
      reason: reason('casual', n + hashOf(id)),
      appliedOn: calendar.workingDaysBefore(id, start, 2 + (n % 4)),
      outcome: 'approve',
    }));
    each(2, (start, n) => ({
      member: person,
      kind: 'casual',
      startDate: start,
      endDate: start,
      part: n % 2 ? 'first_half' : 'second_half',
      reason: reason('casual', n + 2 + hashOf(id)),
      appliedOn: calendar.workingDaysBefore(id, start, 2),
      outcome: 'approve',
    }));
    each(2, (start, n) => ({
      member: person,
      kind: 'casual',
      startDate: start,
      endDate: start,
      part: 'hours',
      minutes: 120 + 60 * (n % 2),
      reason: reason('casual', n + 1 + hashOf(id)),
      appliedOn: calendar.workingDaysBefore(id, start, 1),
      outcome: 'approve',
    }));
    each(2, (start, n) => {
      const half = n % 3 === 2;
      return {
        member: person,
        kind: 'sick',
        startDate: start,
        endDate: half ? start : ahead(person, start, n % 2),
        part: half ? 'second_half' : 'full',
        reason: reason('sick', n + hashOf(id)),
        // Asked for from home on the morning, or for the afternoon after going home ill.
        appliedOn: start,
        decideOn: start,
        outcome: 'approve',
      };
    });
    each(0.7, (start, n) => ({
      member: person,
      kind: 'casual',
      startDate: start,
      endDate: start,
      part: 'full',
      reason: reason('casual', n + 3 + hashOf(id)),
      appliedOn: calendar.workingDaysBefore(id, start, 3),
      outcome: 'reject',
      comment: REFUSALS[(n + hashOf(id)) % 2] as string,
    }));
    each(0.7, (start, n) => ({
      member: person,
      kind: 'casual',
      startDate: start,
      endDate: start,
      part: 'full',
      reason: reason('casual', n + 4 + hashOf(id)),
      appliedOn: calendar.workingDaysBefore(id, start, 5),
      outcome: 'withdraw',
      cancelOn: calendar.workingDaysBefore(id, start, 3),
    }));
    if (person === neha)
      each(1, (start) => ({
        member: person,
        kind: 'unpaid',
        startDate: start,
        endDate: ahead(person, start, 2),
        part: 'full',
        reason: reason('unpaid', 0),
        appliedOn: calendar.workingDaysBefore(id, start, 20),
        outcome: 'approve',
      }));
  }
  return plans;
}
