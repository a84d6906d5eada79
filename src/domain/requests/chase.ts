import { z } from 'zod';
import { addDays, daysApart } from '../days';
import { zId, zInt } from '../fields';

// Chasing a request (issue 36, item 5): reminders on a schedule counted from the request's due
// date: some days before it, on it, then every N days after, each step mailed once. The firm keeps
// a default that is copied onto each request when it is sent, and a request's own copy can be edited
// or paused. The server's job and the request's page both read the schedule through these rules.

export const MAX_BEFORE_STEPS = 5;
export const MAX_BEFORE_DAYS = 60;
export const MAX_EVERY_DAYS = 90;
export const MAX_FLAG_AFTER = 20;

export type TChaseSchedule = {
  /** Days before the due date a reminder goes: [7, 1] is a week before and the day before. */
  beforeDays: number[];
  onDue: boolean;
  /** After the due date, every N days (null: none after it). */
  everyDays: number | null;
};

export const DEFAULT_CHASE: TChaseSchedule = { beforeDays: [7, 1], onDue: true, everyDays: 3 };
/** Unanswered reminders after which a request needs attention. */
export const DEFAULT_FLAG_AFTER = 3;

export const ZChaseSchedule = z.object({
  beforeDays: z
    .array(
      zInt({ error: 'Enter a number of days' })
        .min(1, 'Days before the due date start at 1')
        .max(MAX_BEFORE_DAYS, `At most ${MAX_BEFORE_DAYS} days before the due date`),
    )
    .max(MAX_BEFORE_STEPS, `At most ${MAX_BEFORE_STEPS} reminders before the due date`)
    // One reminder per day, the earliest first: the order the client receives them.
    .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
  onDue: z.boolean(),
  everyDays: zInt({ error: 'Enter a number of days' })
    .min(1, 'Repeat at most once a day')
    .max(MAX_EVERY_DAYS, `Repeat at least every ${MAX_EVERY_DAYS} days`)
    .nullish()
    .transform((v) => v ?? null),
});
export type TChaseScheduleInput = z.input<typeof ZChaseSchedule>;

export const ZChaseSettings = z.object({
  schedule: ZChaseSchedule,
  flagAfter: zInt({ error: 'Enter a number of reminders' })
    .min(1, 'Flag after at least one reminder')
    .max(MAX_FLAG_AFTER, `Flag after at most ${MAX_FLAG_AFTER} reminders`),
});
export type TChaseSettings = z.output<typeof ZChaseSettings>;
export type TChaseSettingsInput = z.input<typeof ZChaseSettings>;

export const ZRequestChaseUpdate = z.object({
  requestId: zId(),
  schedule: ZChaseSchedule,
  paused: z.boolean(),
});

/** A step's name: 'before:7', 'due', 'after:2' (the second one after the due date). */
export type TChaseStep = string;

/** The day a step falls on. */
export function chaseStepDay(schedule: TChaseSchedule, dueDate: string, step: TChaseStep): string {
  if (step === 'due') return dueDate;
  const [kind, n] = step.split(':');
  const k = Number(n);
  return kind === 'before' ? addDays(dueDate, -k) : addDays(dueDate, k * (schedule.everyDays ?? 0));
}

/** The steps of a schedule up to `until` (inclusive), in the order they fall. */
export function chaseSteps(
  schedule: TChaseSchedule,
  dueDate: string,
  until: string,
): { step: TChaseStep; day: string }[] {
  const out = [...new Set(schedule.beforeDays)]
    .filter((k) => k > 0)
    .sort((a, b) => b - a)
    .map((k) => ({ step: `before:${k}`, day: addDays(dueDate, -k) }));
  if (schedule.onDue) out.push({ step: 'due', day: dueDate });
  if (schedule.everyDays) {
    const every = schedule.everyDays;
    for (let n = 1; ; n++) {
      const day = addDays(dueDate, n * every);
      if (day > until) break;
      out.push({ step: `after:${n}`, day });
    }
  }
  return out.filter((s) => s.day <= until);
}

/**
 * The step a request waiting on its client is at on `today`: the latest step whose day has come,
 * if it fell after the day the request was sent (the sending mail is the first word: a request sent
 * three days before its due date skips the week-before reminder). Each step is mailed once (a
 * table's key is the guard), so a day the job did not run is made up by the step it is at, never by
 * a burst of the steps it missed. Null when no step is due.
 */
export function chaseStepOn(
  schedule: TChaseSchedule,
  dueDate: string,
  sentDay: string,
  today: string,
): TChaseStep | null {
  const steps = chaseSteps(schedule, dueDate, today);
  const at = steps[steps.length - 1];
  if (!at || at.day <= sentDay) return null;
  // With nothing after it, a missed due-date reminder is still worth sending for a few days.
  if (at.step === 'due' && !schedule.everyDays && daysApart(at.day, today) > DUE_GRACE_DAYS) return null;
  return at.step;
}

const DUE_GRACE_DAYS = 3;

/**
 * The next day a reminder would go, after `today`: the first step falling after both today and
 * the sent day that has not been sent. Null when the schedule has nothing more.
 */
export function nextChaseDay(
  schedule: TChaseSchedule,
  dueDate: string,
  sentDay: string,
  today: string,
  sent: ReadonlySet<TChaseStep>,
): string | null {
  const horizon = addDays(today > dueDate ? today : dueDate, (schedule.everyDays ?? 0) + 1);
  const from = today > sentDay ? today : sentDay;
  const next = chaseSteps(schedule, dueDate, horizon).find((s) => s.day > from && !sent.has(s.step));
  return next?.day ?? null;
}

/** A person's words for a step. */
export function chaseStepLabel(step: TChaseStep): string {
  if (step === 'due') return 'On the due date';
  const [kind, n] = step.split(':');
  if (kind === 'before') return `${n} day${n === '1' ? '' : 's'} before the due date`;
  return `Reminder ${n} after the due date`;
}

/** The schedule in one line: "7 and 1 days before, on the due date, then every 3 days". */
export function describeChase(schedule: TChaseSchedule): string {
  const parts: string[] = [];
  const before = [...schedule.beforeDays].sort((a, b) => b - a);
  if (before.length) {
    const last = before[before.length - 1];
    const days = before.length === 1 ? `${last}` : `${before.slice(0, -1).join(', ')} and ${last}`;
    parts.push(`${days} day${before.length === 1 && last === 1 ? '' : 's'} before`);
  }
  if (schedule.onDue) parts.push('on the due date');
  if (schedule.everyDays)
    parts.push(
      `${parts.length ? 'then ' : ''}every ${schedule.everyDays} day${schedule.everyDays === 1 ? '' : 's'} after`,
    );
  return parts.length ? parts.join(', ') : 'No reminders';
}
