import { z } from 'zod';
import { isIsoDate } from './days';
import { zId, zInt, zNumber, zString, zText } from './fields';

// Leave and holidays: the schemas the admin screens, the apply form and the server share.
// Amounts are whole hundredths of a type's unit (a day, or an hour for hourly types), so sums are
// exact integers in SQL: 1.5 days = 150, a quarter hour of an hourly type = 25.

export const LEAVE_UNITS = ['day', 'half_day', 'hour'] as const;
export type TLeaveUnit = (typeof LEAVE_UNITS)[number];
export const LEAVE_UNIT_LABELS: Record<TLeaveUnit, string> = {
  day: 'Full days',
  half_day: 'Half days',
  hour: 'Hours',
};

export const ACCRUALS = ['yearly', 'monthly'] as const;
export type TAccrual = (typeof ACCRUALS)[number];
export const ACCRUAL_LABELS: Record<TAccrual, string> = {
  yearly: 'Allocated at the start of the year',
  monthly: 'Accrues monthly',
};

export const ROUNDINGS = ['none', 'half', 'whole'] as const;
export type TRounding = (typeof ROUNDINGS)[number];
export const ROUNDING_LABELS: Record<TRounding, string> = {
  none: 'No rounding',
  half: 'To the nearest half',
  whole: 'To the nearest whole',
};

export const HOLIDAY_PARTS = ['full', 'first_half', 'second_half'] as const;
export type THolidayPart = (typeof HOLIDAY_PARTS)[number];
export const HOLIDAY_PART_LABELS: Record<THolidayPart, string> = {
  full: 'Full day',
  first_half: 'First half',
  second_half: 'Second half',
};

export const LEAVE_PARTS = ['full', 'first_half', 'second_half', 'hours'] as const;
export type TLeavePart = (typeof LEAVE_PARTS)[number];
export const LEAVE_PART_LABELS: Record<TLeavePart, string> = {
  full: 'Full days',
  first_half: 'First half of a day',
  second_half: 'Second half of a day',
  hours: 'Hours',
};

export const LEAVE_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type TLeaveStatus = (typeof LEAVE_STATUSES)[number];
export const LEAVE_STATUS_LABELS: Record<TLeaveStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

export const LEDGER_KINDS = [
  'allocation',
  'accrual',
  'carry_forward',
  'expiry',
  'taken',
  'reversal',
] as const;
export type TLedgerKind = (typeof LEDGER_KINDS)[number];

/** ISO weekday numbers: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WEEKDAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const DEFAULT_WORKING_DAYS = [1, 2, 3, 4, 5];
export const DEFAULT_MINUTES_PER_DAY = 480;
export const DEFAULT_AWAY_WARN_PERCENT = 30;

/** Amount in hundredths → "1.5" (trailing zeros dropped). */
export function formatAmount(hundredths: number): string {
  return String(Math.round(hundredths) / 100);
}

/** "1.5 days", "3 hours", "1 day". */
export function formatAmountWithUnit(hundredths: number, unit: TLeaveUnit): string {
  const n = formatAmount(hundredths);
  const word = unit === 'hour' ? 'hour' : 'day';
  return `${n} ${word}${Math.abs(hundredths) === 100 ? '' : 's'}`;
}

export const ZDay = zString().trim().refine(isIsoDate, 'Enter a date as YYYY-MM-DD');
const ZYear = zInt().min(2000, 'Choose a year from 2000').max(2100, 'Choose a year up to 2100');
/** A number of days or hours a person types (1.5), kept as hundredths. */
const ZAmount = zNumber('Enter a number')
  .min(0, 'Enter zero or more')
  .max(1000, 'Enter at most 1000')
  .transform((v) => Math.round(v * 100));
const ZOffice = zText({ max: 80, label: 'Office' })
  .nullish()
  .transform((v) => (v ? v : null));

// ——— Work pattern ———

export const ZWorkingDays = z
  .array(zInt().min(1).max(7), 'Choose the working days')
  .min(1, 'Choose at least one working day')
  .max(7)
  .transform((days) => [...new Set(days)].sort());

export const ZMinutesPerDay = zInt('Enter the hours of a working day')
  .min(30, 'A working day is at least half an hour')
  .max(24 * 60, 'A working day is at most 24 hours');

export const ZLeaveSettings = z.object({
  workingDays: ZWorkingDays,
  minutesPerDay: ZMinutesPerDay,
  offices: z.array(zText({ max: 80, min: 1, label: 'Office' })).max(50, 'At most 50 offices'),
  /** Requests longer than this many days need a second approval; null: one level. */
  secondLevelAfterDays: zInt().min(1, 'Enter 1 or more').max(365).nullable(),
  /** Warn an approver when more than this share of the team would be away; 0 turns it off. */
  awayWarnPercent: zInt().min(0).max(100, 'Enter a share from 0 to 100'),
});
export type TLeaveSettings = z.output<typeof ZLeaveSettings>;

export const ZMemberWork = z.object({
  memberId: zId(),
  managerId: zId('Choose a manager').nullable(),
  office: ZOffice,
  /** null: the firm's pattern. */
  workingDays: ZWorkingDays.nullable(),
  minutesPerDay: ZMinutesPerDay.nullable(),
});
export type TMemberWork = z.output<typeof ZMemberWork>;

// ——— Holidays ———

export const ZHolidayFields = z.object({
  date: ZDay,
  name: zText({ max: 120, min: 1, label: 'Name' }),
  office: ZOffice,
  part: z.enum(HOLIDAY_PARTS).default('full'),
});
export const ZHolidayUpdate = ZHolidayFields.extend({ holidayId: zId() });
export const ZHolidayRef = z.object({ holidayId: zId() });
export const ZHolidayList = z.object({ year: ZYear, office: ZOffice });
export const ZHolidayCopy = z.object({ fromYear: ZYear, office: ZOffice });
export const ZHolidayImport = z.object({
  csv: zString().max(200_000, 'The file is too large: at most 200 KB'),
  office: ZOffice,
});
export type THolidayFields = z.input<typeof ZHolidayFields>;

/**
 * Rows of a holiday CSV: a header with `date` and `name` (and optionally `part`: full, first half,
 * second half), one holiday a line. Answers the holidays or the problems, by line.
 */
export function holidaysFromCsv(rows: string[][]): { holidays: THolidayFields[]; errors: string[] } {
  const [header, ...body] = rows;
  const names = (header ?? []).map((h) => h.trim().toLowerCase());
  const at = (n: string) => names.indexOf(n);
  if (at('date') < 0 || at('name') < 0) {
    return {
      holidays: [],
      errors: ['The first line must name the columns: date, name (and part if needed)'],
    };
  }
  const holidays: THolidayFields[] = [];
  const errors: string[] = [];
  body.forEach((row, i) => {
    if (row.every((c) => c.trim() === '')) return;
    const part =
      (row[at('part')] ?? '')
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_') || 'full';
    const parsed = ZHolidayFields.safeParse({
      date: row[at('date')] ?? '',
      name: row[at('name')] ?? '',
      part: part === 'half' ? 'second_half' : part,
    });
    if (parsed.success) holidays.push(parsed.data);
    else errors.push(`Line ${i + 2}: ${parsed.error.issues[0]?.message ?? 'not a holiday'}`);
  });
  return { holidays, errors };
}

// ——— Leave types ———

export const ZLeaveTypeFields = z.object({
  name: zText({ max: 60, min: 1, label: 'Name' }),
  paid: z.boolean().default(true),
  unit: z.enum(LEAVE_UNITS).default('day'),
  accrual: z.enum(ACCRUALS).default('yearly'),
  /** Days (or hours) a year; monthly accrual spreads it over twelve months. */
  allowance: ZAmount,
  rounding: z.enum(ROUNDINGS).default('none'),
  /** Most carried into the next year; null: no limit, 0: nothing carries. */
  carryForwardCap: ZAmount.nullable().default(null),
  /** Carried balance lapses this many months into the new year; null: never. */
  carryForwardExpiryMonths: zInt()
    .min(1, 'Enter 1 or more')
    .max(12, 'Enter at most 12')
    .nullable()
    .default(null),
  allowNegative: z.boolean().default(false),
  countWeekends: z.boolean().default(false),
  countHolidays: z.boolean().default(false),
  maxConsecutiveDays: zInt().min(1, 'Enter 1 or more').max(365).nullable().default(null),
  /** A request taking more days than this needs a file (a medical certificate); null: never. */
  attachmentAfterDays: zInt().min(0, 'Enter 0 or more').max(365).nullable().default(null),
});
export const ZLeaveTypeUpdate = ZLeaveTypeFields.extend({ leaveTypeId: zId() });
export const ZLeaveTypeRef = z.object({ leaveTypeId: zId() });
export type TLeaveTypeFields = z.output<typeof ZLeaveTypeFields>;
export type TLeaveTypeInput = z.input<typeof ZLeaveTypeFields>;

// ——— Allocations ———

export const ZAllocationInput = z.object({
  memberId: zId(),
  leaveTypeId: zId('Choose a leave type'),
  year: ZYear,
  /** Signed: a negative adjustment takes days away. */
  amount: zNumber('Enter a number')
    .min(-1000)
    .max(1000)
    .refine((v) => v !== 0, 'Enter an amount other than zero')
    .transform((v) => Math.round(v * 100)),
  note: zText({ max: 200, label: 'Note' }).optional(),
});

export const ZBalancesInput = z.object({
  year: ZYear,
  memberIds: z.array(zId()).max(1000).optional(),
});

// ——— Requests ———

export const ZLeaveRequestFields = z
  .object({
    leaveTypeId: zId('Choose a leave type'),
    startDate: ZDay,
    endDate: ZDay,
    part: z.enum(LEAVE_PARTS).default('full'),
    /** For `hours`: how long, in minutes (quarter hours). */
    minutes: zInt()
      .min(15, 'Enter at least a quarter hour')
      .max(24 * 60)
      .multipleOf(15)
      .nullish(),
    reason: zText({ max: 1000, label: 'Reason' }).optional(),
    /** A file uploaded to LEAVE_ATTACHMENT_UPLOAD_PATH for this request. */
    attachmentId: zId().nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.endDate < v.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'The last day is before the first' });
    }
    if (v.part !== 'full' && v.endDate !== v.startDate) {
      ctx.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'A part of a day is one day: pick one date',
      });
    }
    if (v.part === 'hours' && !v.minutes) {
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'Enter how many hours' });
    }
    if (v.startDate.slice(0, 4) !== v.endDate.slice(0, 4)) {
      ctx.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'A leave ends in the year it starts: split it at the year end',
      });
    }
  });
export type TLeaveRequestInput = z.input<typeof ZLeaveRequestFields>;
export type TLeaveRequestFields = z.output<typeof ZLeaveRequestFields>;
export const ZLeaveRequestRef = z.object({ requestId: zId() });

// ——— Attachments ———

/** Multipart, one file: answers the attachment's id, which the request then names. */
export const LEAVE_ATTACHMENT_UPLOAD_PATH = '/api/leave/attachments';
export const LEAVE_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const leaveAttachmentUrl = (attachmentId: string, purpose: 'download' | 'preview' = 'download') =>
  `${LEAVE_ATTACHMENT_UPLOAD_PATH}/${attachmentId}/${purpose}`;

/** Whether a request taking `dayCount` days of a type needs a file. */
export const needsAttachment = (type: { attachmentAfterDays: number | null }, dayCount: number) =>
  type.attachmentAfterDays !== null && dayCount > type.attachmentAfterDays;

export const dayCountText = (n: number) => (n === 1 ? '1 day' : `${n} days`);

export const attachmentRequiredMessage = (typeName: string, afterDays: number) =>
  `${typeName} longer than ${dayCountText(afterDays)} needs an attachment, such as a medical certificate`;
export const ZLeaveDecision = z.object({
  requestId: zId(),
  approve: z.boolean(),
  comment: zText({ max: 1000, label: 'Comment' }).optional(),
});
export const ZMyLeaveList = z.object({ year: ZYear });
export const ZTeamLeaveList = z.object({
  status: z.enum(['pending', 'decided']).default('pending'),
});
export const ZLeaveCalendar = z.object({ from: ZDay, to: ZDay });
/** Who can work on a day (the assignee picker): the whole firm, or the members named. */
export const ZAvailability = z.object({ day: ZDay, memberIds: z.array(zId()).max(1000).optional() });
