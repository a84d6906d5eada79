import { addMonths, format, parseISO } from 'date-fns';
import { daysBetween, isoWeekday } from './days';
import type { THolidayPart, TLeavePart, TLeaveStatus, TLeaveUnit, TRounding } from './leave';

// The pure rules of leave: what a request deducts, what a month accrues, what a year end carries.
// The server and the apply form both call these, so the figure a member sees before submitting is
// the figure the ledger records.

export type TWorkPattern = { workingDays: readonly number[]; minutesPerDay: number };
export type THolidayDay = { date: string; part: THolidayPart };
export type TCountingRules = { unit: TLeaveUnit; countWeekends: boolean; countHolidays: boolean };

export const isWorkingDay = (day: string, pattern: TWorkPattern) =>
  pattern.workingDays.includes(isoWeekday(day));

/** The share of a day (0, 0.5 or 1) a holiday takes out of a given part of it. */
function holidayShare(holiday: THolidayPart | undefined, part: 'full' | 'first_half' | 'second_half') {
  if (!holiday) return 0;
  if (holiday === 'full') return part === 'full' ? 1 : 0.5;
  if (part === 'full') return 0.5;
  return holiday === part ? 0.5 : 0;
}

export type TDeductionDay = { date: string; share: number; note: string | null };
export type TDeduction = { amount: number; days: TDeductionDay[] };

/**
 * What a request deducts, in hundredths of the type's unit, and the day-by-day share behind it.
 * Non-working days and holidays inside the leave count only when the type says so.
 */
export function deduction(
  request: { startDate: string; endDate: string; part: TLeavePart; minutes?: number | null },
  rules: TCountingRules,
  pattern: TWorkPattern,
  holidays: readonly THolidayDay[],
): TDeduction {
  const byDate = new Map(holidays.map((h) => [h.date, h.part]));
  if (request.part === 'hours') {
    const hours = (request.minutes ?? 0) / 60;
    return {
      amount: Math.round(hours * 100),
      days: [{ date: request.startDate, share: hours / (pattern.minutesPerDay / 60), note: null }],
    };
  }
  const dayPart = request.part;
  const slot = dayPart === 'full' ? 1 : 0.5;
  const days = daysBetween(request.startDate, request.endDate).map((date): TDeductionDay => {
    if (!rules.countWeekends && !isWorkingDay(date, pattern))
      return { date, share: 0, note: 'Not a working day' };
    const off = rules.countHolidays ? 0 : holidayShare(byDate.get(date), dayPart);
    const share = Math.max(0, slot - off);
    return { date, share, note: off > 0 ? (share === 0 ? 'Holiday' : 'Half-day holiday') : null };
  });
  const dayTotal = days.reduce((s, d) => s + d.share, 0);
  const amount = rules.unit === 'hour' ? (dayTotal * pattern.minutesPerDay * 100) / 60 : dayTotal * 100;
  return { amount: Math.round(amount), days };
}

/** Rounds hundredths of a unit: to a half (50) or a whole (100), or not at all. */
export function roundAmount(hundredths: number, rounding: TRounding): number {
  if (rounding === 'half') return Math.round(hundredths / 50) * 50;
  if (rounding === 'whole') return Math.round(hundredths / 100) * 100;
  return Math.round(hundredths);
}

/**
 * Month `month` (1–12)'s accrual of a yearly allowance: the rounded total to the end of the month
 * less the rounded total to the end of the previous one, so rounding never drifts and twelve
 * months add up to the allowance exactly.
 */
export function monthlyAccrual(allowance: number, month: number, rounding: TRounding): number {
  const upTo = (m: number) => roundAmount((allowance * m) / 12, rounding);
  return upTo(month) - upTo(month - 1);
}

/**
 * The year end of one member and type, as two signed ledger amounts: `close` empties the year's
 * balance (an expiry entry dated the last day), `carry` opens the next year with what the cap allows
 * (a carry-forward entry). A negative balance carries whole: it is owed, whatever the cap.
 */
export function yearEnd(remaining: number, cap: number | null): { close: number; carry: number } {
  if (remaining <= 0) return { close: -remaining, carry: remaining };
  const carry = cap === null ? remaining : Math.min(remaining, cap);
  return { close: -remaining, carry };
}

/**
 * Carried-forward balance that lapses: leave taken since the year began uses the carried days
 * first, so only what is left of them expires.
 */
export function carryForwardLapse(carried: number, takenSinceYearStart: number): number {
  return Math.max(0, carried - Math.max(0, takenSinceYearStart));
}

/** The day carried balance lapses on: the first of the month `months` into the year. */
export function carryForwardExpiresOn(year: number, months: number): string {
  return format(addMonths(parseISO(`${year}-01-01`), months), 'yyyy-MM-dd');
}

/** A ledger's balance: the sum of its signed entries. */
export const balanceOf = (entries: readonly { amount: number }[]) =>
  entries.reduce((s, e) => s + e.amount, 0);

export type TApprovedLeaveDay = { date: string; part: TLeavePart; minutes: number | null };

/**
 * Minutes a member can work each day from `from` to `to`: the work pattern, less holidays, less
 * approved leave. The one rule capacity planning and timesheets read.
 */
export function availableMinutesByDay(
  from: string,
  to: string,
  pattern: TWorkPattern,
  holidays: readonly THolidayDay[],
  leave: readonly TApprovedLeaveDay[],
): Record<string, number> {
  const holidayOn = new Map(holidays.map((h) => [h.date, h.part]));
  const leaveOn = new Map<string, TApprovedLeaveDay[]>();
  for (const l of leave) leaveOn.set(l.date, [...(leaveOn.get(l.date) ?? []), l]);
  const out: Record<string, number> = {};
  const half = pattern.minutesPerDay / 2;
  for (const date of daysBetween(from, to)) {
    if (!isWorkingDay(date, pattern)) {
      out[date] = 0;
      continue;
    }
    const halvesOff = new Set<string>();
    const h = holidayOn.get(date);
    if (h === 'full') halvesOff.add('first_half').add('second_half');
    else if (h) halvesOff.add(h);
    let hoursOff = 0;
    for (const l of leaveOn.get(date) ?? []) {
      if (l.part === 'full') halvesOff.add('first_half').add('second_half');
      else if (l.part === 'hours') hoursOff += l.minutes ?? 0;
      else halvesOff.add(l.part);
    }
    out[date] = Math.max(0, Math.round(pattern.minutesPerDay - halvesOff.size * half - hoursOff));
  }
  return out;
}

/**
 * How the member who asked for a leave may cancel it on `today` (the firm's date): a pending one is
 * withdrawn, an approved one yet to start gives its days back; anything else (decided, cancelled,
 * begun or past) cannot be cancelled. The server refuses what this refuses, and the history offers
 * Cancel only where it allows, with the confirmation that fits.
 */
export function ownLeaveCancel(
  request: { status: TLeaveStatus; startDate: string },
  today: string,
): 'withdraw' | 'return-days' | null {
  if (request.status === 'pending') return 'withdraw';
  if (request.status === 'approved' && request.startDate > today) return 'return-days';
  return null;
}
