import { z } from 'zod';
import { addDays, isIsoDate, weekStartOf } from './days';
import { zDate, zInt, zString, zText } from './fields';
import { MAX_ENTRY_MINUTES } from './timesheets-constants';

export { MAX_ENTRY_MINUTES } from './timesheets-constants';

// Time is kept in whole minutes everywhere; the grid, the day list and the procedures read hours
// through parseDuration, so "1:30", "1.5" and "90m" mean the same thing on every screen and server.

export const ENTRY_TOO_LONG = 'An entry cannot be longer than 12 hours';
export const NOTE_REQUIRED = 'Add a note when the time is for neither a client nor a task';
export const DURATION_HELP = 'Type hours like 1:30, 1.5 or 90m';

export const ENTRY_STATUSES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type TEntryStatus = (typeof ENTRY_STATUSES)[number];
export const ENTRY_STATUS_LABELS: Record<TEntryStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** A week's state for one member: no row yet reads as open. */
export const WEEK_STATUSES = ['open', 'submitted', 'approved', 'rejected'] as const;
export type TWeekStatus = (typeof WEEK_STATUSES)[number];

/** Entries a member may still change: not yet submitted, or sent back. */
export const EDITABLE_STATUSES: readonly TEntryStatus[] = ['draft', 'rejected'];

/**
 * Minutes from what a person types: "1:30", "1.5", "1,5", "90m", "2h", "1h 30m", "45" (hours).
 * Blank is 0. Null when it cannot be read.
 */
export function parseDuration(input: string): number | null {
  const text = input.trim().toLowerCase();
  if (text === '') return 0;
  let m = /^(\d{1,2}):([0-5]\d)$/.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d{1,2})?(?:[.,](\d{1,2}))?\s*h?$/.exec(text);
  if (m && (m[1] !== undefined || m[2] !== undefined)) {
    const hours = Number(`${m[1] ?? '0'}.${m[2] ?? '0'}`);
    return Math.round(hours * 60);
  }
  m = /^(\d{1,4})\s*m(?:in)?$/.exec(text);
  if (m) return Number(m[1]);
  m = /^(\d{1,2})\s*h\s*(\d{1,2})\s*m?$/.exec(text);
  if (m && Number(m[2]) < 60) return Number(m[1]) * 60 + Number(m[2]);
  return null;
}

/** "1:30" for 90 minutes; "" for 0, so an empty grid cell stays empty. */
export function formatMinutes(minutes: number): string {
  if (!minutes) return '';
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

// ---- week maths: days are 'YYYY-MM-DD', weeks run Monday to Sunday --------------------------------

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The years an entry may fall in: enough for any firm's history, and no typo a century away. */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '2099-12-31';

/**
 * Whether a day is locked by the firm's lock date: days on or before it, once the grace days after
 * it have passed (members may still finish last month's time for a few days).
 */
export function isLocked(
  day: string,
  lock: { lockDate: string | null; graceDays: number },
  today: string,
): boolean {
  if (!lock.lockDate || day > lock.lockDate) return false;
  return today > addDays(lock.lockDate, lock.graceDays);
}

// ---- schemas ---------------------------------------------------------------------------------------

export const ZEntryDay = zString()
  .regex(DAY, 'Use a date like 2026-03-31')
  .refine(isIsoDate, 'This date does not exist')
  .refine((v) => v >= FIRST_DAY && v <= LAST_DAY, 'Choose a date between the years 2000 and 2099');

/** Minutes as a number, or what a person typed ("1:30"); the same rule either way. */
export const ZMinutes = z
  .union([zInt(), zString().max(20, DURATION_HELP)])
  .transform((value, ctx) => {
    const minutes = typeof value === 'number' ? value : parseDuration(value);
    if (minutes === null) {
      ctx.addIssue({ code: 'custom', message: DURATION_HELP });
      return z.NEVER;
    }
    return minutes;
  })
  .pipe(zInt().min(0, 'Time cannot be negative').max(MAX_ENTRY_MINUTES, ENTRY_TOO_LONG));

const zOptionalId = (message: string) =>
  z
    .uuid(message)
    .nullish()
    .transform((v) => v ?? null);

export const ZEntryNote = zText({ max: 2000, label: 'Note' });

const entryLinks = {
  clientId: zOptionalId('This client link is not valid'),
  projectId: zOptionalId('This project link is not valid'),
  taskId: zOptionalId('This task link is not valid'),
  serviceId: zOptionalId('This service link is not valid'),
};

/** The note rule, shared by the day list's form and the server. */
function requireNote(
  value: { clientId: string | null; taskId: string | null; note: string },
  ctx: z.RefinementCtx,
) {
  if (!value.clientId && !value.taskId && !value.note)
    ctx.addIssue({ code: 'custom', message: NOTE_REQUIRED, path: ['note'] });
}

export const ZEntryInput = z
  .object({
    date: ZEntryDay,
    minutes: ZMinutes.refine((m) => m > 0, 'Enter the time spent'),
    ...entryLinks,
    /** Unset: the service's own default (billable when the time is for a client). */
    billable: z.boolean().nullish(),
    note: ZEntryNote.default(''),
  })
  .superRefine(requireNote);
export type TEntryFormInput = z.input<typeof ZEntryInput>;
export type TEntryInput = z.output<typeof ZEntryInput>;

export const ZEntryUpdate = z.object({ entryId: z.uuid('This entry link is not valid') }).and(ZEntryInput);

export const ZEntryRef = z.object({ entryId: z.uuid('This entry link is not valid') });

/** One cell of the week grid: the row's links, a day, and the total typed (0 clears it). */
export const ZCellInput = z
  .object({ date: ZEntryDay, minutes: ZMinutes, ...entryLinks, note: ZEntryNote.default('') })
  .superRefine((value, ctx) => {
    if (value.minutes > 0) requireNote(value, ctx);
  });
export type TCellInput = z.output<typeof ZCellInput>;

export const ZWeekInput = z.object({
  weekStart: ZEntryDay.refine((d) => weekStartOf(d) === d, 'A week starts on a Monday'),
});
export type TWeekInput = z.output<typeof ZWeekInput>;

export const ZTeamWeekInput = ZWeekInput;

export const ZWeekDecision = z.object({
  weekStart: ZWeekInput.shape.weekStart,
  memberIds: z.array(z.uuid('This member link is not valid')).min(1, 'Choose a member').max(1000),
});

export const ZWeekReject = z.object({
  weekStart: ZWeekInput.shape.weekStart,
  memberId: z.uuid('This member link is not valid'),
  comment: zText({ max: 2000, min: 1, label: 'A comment', minMessage: 'Say why the week is sent back' }),
});

export const ZLockSettings = z.object({
  lockDate: ZEntryDay.nullable(),
  graceDays: zInt().min(0, 'Grace days cannot be negative').max(60, 'Grace days must be at most 60'),
});
export type TLockSettings = z.output<typeof ZLockSettings>;

export const ZRowOptionsInput = z.object({
  search: zText({ max: 100, label: 'Search' }).optional(),
  clientId: zOptionalId('This client link is not valid'),
});

// ---- the timer ---------------------------------------------------------------------------------------

/** A timer still running at this firm time brings its member a notice, once. */
export const TIMER_NOTICE_AT = '18:00';
/** A timer left this long stops itself and waits for the real end time. */
export const TIMER_AUTO_STOP_MINUTES = 16 * 60;
export const TIMER_RUNNING = 'Your timer is already running: stop it before starting another';
export const TIMER_TOO_LONG = 'The timer ran more than 12 hours: give the time you stopped work';

export const ZTimerStart = z
  .object({
    taskId: zOptionalId('This task link is not valid'),
    clientId: zOptionalId('This client link is not valid'),
    note: ZEntryNote.default(''),
  })
  .superRefine(requireNote);
export type TTimerStart = z.output<typeof ZTimerStart>;

export const ZTimerRef = z.object({ timerId: z.uuid('This timer link is not valid') });

/** The real end of a timer's work, for one that ran too long or stopped itself. */
export const ZTimerFinish = ZTimerRef.extend({
  endedAt: zDate({ message: 'Give the time you stopped work' }),
});

/** Whole minutes between two instants, at least one: a timer that ran is never an empty entry. */
export function timerMinutes(startedAt: Date, endedAt: Date): number {
  return Math.max(1, Math.round((endedAt.getTime() - startedAt.getTime()) / 60_000));
}
