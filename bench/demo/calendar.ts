import { createHash } from 'node:crypto';
import { addDays } from '../../src/domain/days';
import { holidaysOf } from './holidays';

// The firm's calendar as the demo plans with it: who works which weekdays, the holidays, and the
// leave the demo knows was approved. The product keeps its own (the work pattern, the holidays and
// the leave ledger); the replay reads the product's figure where it enters time (timesheets.myWeek)
// and uses this one to decide when people are in to submit, approve and apply.

export const FIRM_TIME_ZONE = 'Asia/Kolkata';

/** hh:mm on that day in Mumbai. */
export const inMumbai = (day: string, time: string) => new Date(`${day}T${time}:00+05:30`);

/** 1 = Monday … 7 = Sunday. */
export const isoWeekday = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

/** A number from a text, the same every run: the replay's choices hang on it. */
export const hashOf = (text: string) => createHash('sha1').update(text).digest().readUInt32BE(0);

export type TDayPart = 'full' | 'first_half' | 'second_half' | 'hours';

export class DemoCalendar {
  private readonly holidays = new Map<string, 'full' | 'second_half'>();
  private readonly leave = new Map<string, Map<string, TDayPart>>();

  constructor(
    years: number[],
    /** Working weekdays by member (the firm's where the member has none of their own). */
    private readonly patterns: (memberId: string) => readonly number[],
  ) {
    for (const year of years) for (const h of holidaysOf(year)) this.holidays.set(h.date, h.part);
  }

  isHoliday(day: string) {
    return this.holidays.get(day) === 'full';
  }

  /** A working day of the firm: a weekday that is not a full holiday. */
  firmOpen(day: string) {
    return isoWeekday(day) <= 5 && !this.isHoliday(day);
  }

  works(memberId: string, day: string) {
    return this.patterns(memberId).includes(isoWeekday(day)) && !this.isHoliday(day);
  }

  /** In the office that day: a working day of theirs, not on a whole day's approved leave. */
  atWork(memberId: string, day: string) {
    return this.works(memberId, day) && this.leave.get(memberId)?.get(day) !== 'full';
  }

  /** The member's next working day on or after `day` (within a month), or null. */
  nextWorkingDay(memberId: string, day: string): string | null {
    for (let d = day, n = 0; n < 31; d = addDays(d, 1), n++) if (this.works(memberId, d)) return d;
    return null;
  }

  /** The member's working day `n` working days before `day`. */
  workingDaysBefore(memberId: string, day: string, n: number) {
    let d = day;
    for (let left = n; left > 0; ) {
      d = addDays(d, -1);
      if (this.works(memberId, d)) left--;
    }
    return d;
  }

  /** Approved leave, as the member's manager decides it: those days they are away. */
  approved(memberId: string, from: string, to: string, part: TDayPart) {
    const days = this.leave.get(memberId) ?? new Map<string, TDayPart>();
    for (let d = from; d <= to; d = addDays(d, 1)) days.set(d, part);
    this.leave.set(memberId, days);
  }

  cancelled(memberId: string, from: string, to: string) {
    const days = this.leave.get(memberId);
    for (let d = from; d <= to; d = addDays(d, 1)) days?.delete(d);
  }

  /** Members whose approved leave takes some of the day. */
  awayOn(day: string) {
    return [...this.leave].filter(([, days]) => days.has(day)).map(([id]) => id);
  }
}
