import { z } from 'zod';
import { zInt, zString } from './fields';
import { formatMinutes, parseDuration, ZWeekInput } from './timesheets';

// Approval is where billing starts (invoices bill approved time), so its rules live here once: who
// may decide a week, and which days an approver is shown as unusual before deciding.

/** A day past this many minutes is flagged to the approver until the firm sets its own limit. */
export const DEFAULT_DAILY_LIMIT_MINUTES = 10 * 60;
export const DAILY_LIMIT_HELP = 'Type hours like 10, 9:30 or 9.5';

export const OWN_WEEK_REFUSED = 'Nobody approves their own time: another approver decides your week';

/** Why the caller may not decide a week that is not their own, said to them. */
export function approverOnlyMessage(memberName: string, approverName: string | null): string {
  return approverName
    ? `${memberName} approves timesheets, so ${approverName} decides their week`
    : `${memberName} approves timesheets, so their week needs the approvers' approver: name one in Firm settings, Work`;
}

export const ZApprovalSettings = z.object({
  dailyLimitMinutes: z
    .union([zInt(), zString().max(20, DAILY_LIMIT_HELP)])
    .transform((value, ctx) => {
      const minutes = typeof value === 'number' ? value : parseDuration(value);
      if (minutes === null) {
        ctx.addIssue({ code: 'custom', message: DAILY_LIMIT_HELP });
        return z.NEVER;
      }
      return minutes;
    })
    .pipe(
      zInt()
        .min(60, 'The daily limit must be at least 1 hour')
        .max(24 * 60, 'The daily limit must be at most 24 hours'),
    ),
  /** The member who decides the weeks of those who approve; null: the owner. */
  approversApproverId: z
    .uuid('Choose a member from the list')
    .nullish()
    .transform((v) => v ?? null),
});
export type TApprovalSettingsInput = z.input<typeof ZApprovalSettings>;
export type TApprovalSettings = z.output<typeof ZApprovalSettings>;

export const ZMemberWeekInput = z.object({
  weekStart: ZWeekInput.shape.weekStart,
  memberId: z.uuid('This member link is not valid'),
});

// ---- unusual days ------------------------------------------------------------------------------------

export type TDayFlagKind = 'overLimit' | 'holiday' | 'leave' | 'weekend' | 'dayOff';
export type TDayFlag = { kind: TDayFlagKind; label: string };

/** What the leave feature knows of a member's day, and the time logged on it. */
export type TDayFacts = {
  date: string;
  minutes: number;
  /** Minutes the member was expected to work (their pattern less holidays and approved leave). */
  expected: number;
  /** A working day by the member's pattern. */
  working: boolean;
  absence: { kind: 'holiday' | 'leave'; name: string } | null;
};

const isWeekend = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
};

/**
 * Why a day deserves a second look before its week is approved: longer than the firm's daily
 * limit, time on a holiday or approved leave beyond what was left of the day, or time on a day the
 * member does not work. An empty list is an ordinary day.
 */
export function dayFlags(day: TDayFacts, dailyLimitMinutes: number): TDayFlag[] {
  if (day.minutes <= 0) return [];
  const flags: TDayFlag[] = [];
  if (day.minutes > dailyLimitMinutes)
    flags.push({
      kind: 'overLimit',
      label: `${formatMinutes(day.minutes)} is over the firm's daily limit of ${formatMinutes(dailyLimitMinutes)}`,
    });
  if (!day.working)
    flags.push(
      isWeekend(day.date)
        ? { kind: 'weekend', label: 'Time logged on a weekend' }
        : { kind: 'dayOff', label: 'Time logged on a day they do not work' },
    );
  else if (day.absence && day.minutes > day.expected)
    flags.push(
      day.absence.kind === 'holiday'
        ? { kind: 'holiday', label: `Time logged on a holiday (${day.absence.name})` }
        : { kind: 'leave', label: `Time logged on approved leave (${day.absence.name})` },
    );
  return flags;
}
