import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysApart,
  daysBetween,
  isIsoDate,
  isoWeekday,
  todayIn,
  weekDays,
  weekStartOf,
} from './days';

describe("the firm's today", () => {
  it('turns over at midnight in the firm time zone, not in UTC', () => {
    // Asia/Kolkata is UTC+05:30: 18:29:59Z is 23:59:59 on the 21st, 18:30:00Z is midnight of the 22nd.
    expect(todayIn('Asia/Kolkata', new Date('2026-11-21T18:29:59Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Kolkata', new Date('2026-11-21T18:30:00Z'))).toBe('2026-11-22');
    expect(todayIn('America/Los_Angeles', new Date('2026-11-22T07:59:59Z'))).toBe('2026-11-21');
    expect(todayIn('America/New_York', new Date('2026-03-31T20:00:00Z'))).toBe('2026-03-31');
    expect(todayIn('UTC', new Date('2026-11-22T00:00:00Z'))).toBe('2026-11-22');
  });

  it('takes a zone the runtime does not know as UTC rather than throwing', () => {
    expect(todayIn('Nowhere/Atlantis', new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-22');
  });

  it('pads early months and days', () => {
    expect(todayIn('Asia/Kolkata', new Date('2026-01-04T12:00:00Z'))).toBe('2026-01-04');
  });
});

describe('day arithmetic', () => {
  it('adds days across month, year and leap-year ends, negative ones too', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-29', 0)).toBe('2026-03-29');
  });

  it('counts the days between two days, negative when the second is earlier', () => {
    expect(daysApart('2026-02-27', '2026-03-01')).toBe(2);
    expect(daysApart('2026-03-01', '2026-02-27')).toBe(-2);
    expect(daysApart('2026-10-24', '2026-10-26')).toBe(2); // across a European DST change
  });

  it('lists every day of a span, both ends included, and nothing for a span backwards', () => {
    expect(daysBetween('2026-12-30', '2027-01-02')).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(daysBetween('2026-03-02', '2026-03-01')).toEqual([]);
  });

  it('knows the days that exist', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-2-01')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });
});

describe('weeks', () => {
  it('numbers weekdays Monday 1 to Sunday 7', () => {
    expect(isoWeekday('2026-03-02')).toBe(1);
    expect(isoWeekday('2026-03-08')).toBe(7);
  });

  it('starts the week on Monday, whatever day it is given', () => {
    expect(weekStartOf('2026-03-04')).toBe('2026-03-02'); // a Wednesday
    expect(weekStartOf('2026-03-08')).toBe('2026-03-02'); // the Sunday after
    expect(weekStartOf('2026-03-02')).toBe('2026-03-02');
    expect(weekStartOf('2026-01-01')).toBe('2025-12-29'); // across a year
  });

  it('lists the seven days, across a month end', () => {
    expect(weekDays('2026-03-30')).toEqual([
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
      '2026-04-05',
    ]);
  });
});
