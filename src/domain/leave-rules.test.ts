import { describe, expect, it } from 'vitest';
import {
  availableMinutesByDay,
  balanceOf,
  carryForwardExpiresOn,
  carryForwardLapse,
  deduction,
  monthlyAccrual,
  ownLeaveCancel,
  roundAmount,
  yearEnd,
} from './leave-rules';

const week = { workingDays: [1, 2, 3, 4, 5], minutesPerDay: 480 };
const days = { unit: 'day' as const, countWeekends: false, countHolidays: false };

describe('deduction', () => {
  // 2026-03-06 is a Friday; 03-09 the Monday after.
  it('skips the weekend and a holiday inside a leave', () => {
    const d = deduction({ startDate: '2026-03-05', endDate: '2026-03-10', part: 'full' }, days, week, [
      { date: '2026-03-09', part: 'full' },
    ]);
    expect(d.amount).toBe(300);
    expect(d.days.map((x) => x.share)).toEqual([1, 1, 0, 0, 0, 1]);
    expect(d.days[3]?.note).toBe('Not a working day');
    expect(d.days[4]?.note).toBe('Holiday');
  });

  it('counts weekends and holidays when the type says so', () => {
    const d = deduction(
      { startDate: '2026-03-05', endDate: '2026-03-10', part: 'full' },
      { ...days, countWeekends: true, countHolidays: true },
      week,
      [{ date: '2026-03-09', part: 'full' }],
    );
    expect(d.amount).toBe(600);
  });

  it('takes half a day off for a half-day holiday, and nothing for a half-day leave on the holiday half', () => {
    const holidays = [{ date: '2026-03-09', part: 'second_half' as const }];
    expect(
      deduction({ startDate: '2026-03-09', endDate: '2026-03-09', part: 'full' }, days, week, holidays)
        .amount,
    ).toBe(50);
    expect(
      deduction({ startDate: '2026-03-09', endDate: '2026-03-09', part: 'second_half' }, days, week, holidays)
        .amount,
    ).toBe(0);
    expect(
      deduction({ startDate: '2026-03-09', endDate: '2026-03-09', part: 'first_half' }, days, week, holidays)
        .amount,
    ).toBe(50);
  });

  it('counts an hourly type in hours of the member pattern', () => {
    const hourly = { ...days, unit: 'hour' as const };
    expect(
      deduction({ startDate: '2026-03-09', endDate: '2026-03-10', part: 'full' }, hourly, week, []).amount,
    ).toBe(1600);
    expect(
      deduction(
        { startDate: '2026-03-09', endDate: '2026-03-09', part: 'hours', minutes: 90 },
        hourly,
        week,
        [],
      ).amount,
    ).toBe(150);
  });

  it('follows a member pattern that works Saturdays', () => {
    const sixDays = { workingDays: [1, 2, 3, 4, 5, 6], minutesPerDay: 420 };
    expect(
      deduction({ startDate: '2026-03-06', endDate: '2026-03-08', part: 'full' }, days, sixDays, []).amount,
    ).toBe(200);
  });
});

describe('accrual and year end', () => {
  it('rounds each month so twelve months add up to the allowance', () => {
    for (const rounding of ['none', 'half', 'whole'] as const) {
      const months = Array.from({ length: 12 }, (_, i) => monthlyAccrual(2000, i + 1, rounding));
      expect(months.reduce((a, b) => a + b, 0)).toBe(2000);
    }
    expect(monthlyAccrual(2000, 1, 'none')).toBe(167);
    expect(monthlyAccrual(2000, 1, 'half')).toBe(150);
    expect(monthlyAccrual(2000, 2, 'half')).toBe(200);
    expect(monthlyAccrual(2000, 1, 'whole')).toBe(200);
    expect(roundAmount(125, 'half')).toBe(150);
    expect(roundAmount(124, 'half')).toBe(100);
  });

  it('carries up to the cap and closes the rest; a debt carries whole', () => {
    expect(yearEnd(700, 500)).toEqual({ close: -700, carry: 500 });
    expect(yearEnd(300, 500)).toEqual({ close: -300, carry: 300 });
    expect(yearEnd(300, 0)).toEqual({ close: -300, carry: 0 });
    expect(yearEnd(300, null)).toEqual({ close: -300, carry: 300 });
    expect(yearEnd(-150, 500)).toEqual({ close: 150, carry: -150 });
    expect(yearEnd(0, 500)).toEqual({ close: -0, carry: 0 });
  });

  it('lapses only the carried days not yet used', () => {
    expect(carryForwardLapse(500, 200)).toBe(300);
    expect(carryForwardLapse(500, 700)).toBe(0);
    expect(carryForwardLapse(500, 0)).toBe(500);
    expect(carryForwardExpiresOn(2027, 3)).toBe('2027-04-01');
  });

  it('sums a ledger', () => {
    expect(balanceOf([{ amount: 2000 }, { amount: -300 }, { amount: 300 }, { amount: -150 }])).toBe(1850);
  });
});

describe('availableMinutesByDay', () => {
  it('is the pattern less holidays and approved leave', () => {
    const out = availableMinutesByDay(
      '2026-03-06',
      '2026-03-12',
      week,
      [
        { date: '2026-03-09', part: 'full' },
        { date: '2026-03-10', part: 'first_half' },
      ],
      [
        { date: '2026-03-10', part: 'second_half', minutes: null },
        { date: '2026-03-11', part: 'hours', minutes: 120 },
        { date: '2026-03-12', part: 'first_half', minutes: null },
      ],
    );
    expect(out).toEqual({
      '2026-03-06': 480,
      '2026-03-07': 0,
      '2026-03-08': 0,
      '2026-03-09': 0,
      '2026-03-10': 0,
      '2026-03-11': 360,
      '2026-03-12': 240,
    });
  });
});

describe('ownLeaveCancel', () => {
  const today = '2026-11-28';
  it('withdraws a pending request, whenever it falls', () => {
    expect(ownLeaveCancel({ status: 'pending', startDate: '2026-11-01' }, today)).toBe('withdraw');
    expect(ownLeaveCancel({ status: 'pending', startDate: '2026-12-01' }, today)).toBe('withdraw');
  });
  it('gives the days of an approved leave back only before it starts', () => {
    expect(ownLeaveCancel({ status: 'approved', startDate: '2026-11-29' }, today)).toBe('return-days');
    expect(ownLeaveCancel({ status: 'approved', startDate: today }, today)).toBeNull();
    expect(ownLeaveCancel({ status: 'approved', startDate: '2026-09-01' }, today)).toBeNull();
  });
  it('leaves a decided or cancelled request alone', () => {
    expect(ownLeaveCancel({ status: 'rejected', startDate: '2026-12-01' }, today)).toBeNull();
    expect(ownLeaveCancel({ status: 'cancelled', startDate: '2026-12-01' }, today)).toBeNull();
  });
});
