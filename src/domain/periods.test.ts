import { describe, expect, it } from 'vitest';
import {
  dueDateFor,
  fiscalYearKey,
  nextPeriod,
  oneTimePeriod,
  periodContaining,
  periodsBetween,
  periodsToGenerate,
  projectNameFor,
} from './periods';

describe('monthly periods', () => {
  it('spans the calendar month, whatever the fiscal year', () => {
    expect(periodContaining('monthly', 4, '2026-03-15')).toEqual({
      key: '2026-03',
      label: 'Mar 2026',
      start: '2026-03-01',
      end: '2026-03-31',
    });
    expect(periodContaining('monthly', 1, '2026-04-30')).toMatchObject({
      start: '2026-04-01',
      end: '2026-04-30',
    });
  });

  it('ends on 28 or 29 February by leap year', () => {
    expect(periodContaining('monthly', 1, '2026-02-10').end).toBe('2026-02-28');
    expect(periodContaining('monthly', 1, '2028-02-10').end).toBe('2028-02-29');
    expect(periodContaining('monthly', 1, '2100-02-01').end).toBe('2100-02-28');
    expect(periodContaining('monthly', 1, '2000-02-01').end).toBe('2000-02-29');
  });

  it('puts the first and last day of a month in that month', () => {
    expect(periodContaining('monthly', 1, '2026-12-01').key).toBe('2026-12');
    expect(periodContaining('monthly', 1, '2026-12-31').key).toBe('2026-12');
    expect(nextPeriod('monthly', 1, periodContaining('monthly', 1, '2026-12-31')).key).toBe('2027-01');
  });
});

describe('quarters', () => {
  it('are calendar quarters when the fiscal year starts in January', () => {
    expect(periodContaining('quarterly', 1, '2026-01-01')).toEqual({
      key: '2026-Q1',
      label: 'Q1 2026',
      start: '2026-01-01',
      end: '2026-03-31',
    });
    expect(periodContaining('quarterly', 1, '2026-12-31')).toMatchObject({
      key: '2026-Q4',
      start: '2026-10-01',
      end: '2026-12-31',
    });
  });

  it('count from the fiscal-year start (April): Q4 falls in the next calendar year', () => {
    expect(periodContaining('quarterly', 4, '2026-04-01')).toEqual({
      key: '2026-Q1',
      label: 'Q1 FY2026-27',
      start: '2026-04-01',
      end: '2026-06-30',
    });
    expect(periodContaining('quarterly', 4, '2027-03-31')).toMatchObject({
      key: '2026-Q4',
      start: '2027-01-01',
      end: '2027-03-31',
    });
    expect(periodContaining('quarterly', 4, '2026-03-31').key).toBe('2025-Q4');
  });

  it('handle a fiscal year starting in a month that is not a quarter boundary (July, November)', () => {
    expect(periodContaining('quarterly', 7, '2026-09-30')).toMatchObject({
      key: '2026-Q1',
      start: '2026-07-01',
      end: '2026-09-30',
    });
    expect(periodContaining('quarterly', 11, '2027-01-31')).toMatchObject({
      key: '2026-Q1',
      start: '2026-11-01',
      end: '2027-01-31',
    });
    expect(periodContaining('quarterly', 11, '2026-10-31')).toMatchObject({
      key: '2025-Q4',
      start: '2026-08-01',
      end: '2026-10-31',
    });
  });

  it('include 29 February in a leap-year quarter', () => {
    expect(periodContaining('quarterly', 12, '2028-02-29')).toMatchObject({
      key: '2027-Q1',
      start: '2027-12-01',
      end: '2028-02-29',
    });
  });
});

describe('halves and years', () => {
  it('split the fiscal year in two', () => {
    expect(periodContaining('half_yearly', 1, '2026-06-30')).toMatchObject({
      key: '2026-H1',
      label: 'H1 2026',
      start: '2026-01-01',
      end: '2026-06-30',
    });
    expect(periodContaining('half_yearly', 4, '2027-01-15')).toMatchObject({
      key: '2026-H2',
      label: 'H2 FY2026-27',
      start: '2026-10-01',
      end: '2027-03-31',
    });
  });

  it('key a calendar year by its number and a fiscal year as FY2026-27', () => {
    expect(periodContaining('yearly', 1, '2026-07-01')).toEqual({
      key: '2026',
      label: '2026',
      start: '2026-01-01',
      end: '2026-12-31',
    });
    expect(periodContaining('yearly', 4, '2026-07-01')).toEqual({
      key: 'FY2026-27',
      label: 'FY2026-27',
      start: '2026-04-01',
      end: '2027-03-31',
    });
    expect(periodContaining('yearly', 4, '2026-03-31').key).toBe('FY2025-26');
    expect(fiscalYearKey(2099, 4)).toBe('FY2099-00');
    expect(fiscalYearKey(2008, 7)).toBe('FY2008-09');
  });

  it('refuses a fiscal-year start month outside 1-12', () => {
    expect(() => periodContaining('yearly', 0, '2026-01-01')).toThrow(RangeError);
    expect(() => periodContaining('quarterly', 13, '2026-01-01')).toThrow(RangeError);
  });
});

describe('periodsBetween', () => {
  it('lists every period overlapping the range, in order', () => {
    expect(periodsBetween('monthly', 1, '2026-01-31', '2026-04-01').map((p) => p.key)).toEqual([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    expect(periodsBetween('quarterly', 4, '2026-03-01', '2026-07-01').map((p) => p.key)).toEqual([
      '2025-Q4',
      '2026-Q1',
      '2026-Q2',
    ]);
    expect(periodsBetween('yearly', 4, '2026-05-01', '2026-05-01').map((p) => p.key)).toEqual(['FY2026-27']);
  });

  it('is empty when the range ends before the first period starts', () => {
    expect(periodsBetween('monthly', 1, '2026-05-10', '2026-04-30')).toEqual([]);
  });
});

describe('dueDateFor', () => {
  it('takes the day of the month after the period', () => {
    expect(dueDateFor('2026-03-31', { dayOfMonth: 20, monthsAfterPeriod: 1 })).toBe('2026-04-20');
    expect(dueDateFor('2026-06-30', { dayOfMonth: 31, monthsAfterPeriod: 4 })).toBe('2026-10-31');
    expect(dueDateFor('2026-12-31', { dayOfMonth: 11, monthsAfterPeriod: 1 })).toBe('2027-01-11');
  });

  it('clamps the day to the month end: 31 is 30 April, 28 or 29 February', () => {
    expect(dueDateFor('2026-03-31', { dayOfMonth: 31, monthsAfterPeriod: 1 })).toBe('2026-04-30');
    expect(dueDateFor('2026-01-31', { dayOfMonth: 31, monthsAfterPeriod: 1 })).toBe('2026-02-28');
    expect(dueDateFor('2028-01-31', { dayOfMonth: 30, monthsAfterPeriod: 1 })).toBe('2028-02-29');
    expect(dueDateFor('2100-01-31', { dayOfMonth: 29, monthsAfterPeriod: 1 })).toBe('2100-02-28');
  });

  it('stays in the period’s last month with 0 months after, and crosses years', () => {
    expect(dueDateFor('2026-02-28', { dayOfMonth: 31, monthsAfterPeriod: 0 })).toBe('2026-02-28');
    expect(dueDateFor('2027-03-31', { dayOfMonth: 31, monthsAfterPeriod: 6 })).toBe('2027-09-30');
    expect(dueDateFor('2026-11-30', { dayOfMonth: 15, monthsAfterPeriod: 12 })).toBe('2027-11-15');
  });

  it('is the period end when the service has no rule', () => {
    expect(dueDateFor('2026-06-30', null)).toBe('2026-06-30');
  });
});

describe('helpers', () => {
  it('names a project after its service and period', () => {
    expect(projectNameFor('GST return', periodContaining('monthly', 1, '2026-03-02'))).toBe(
      'GST return · Mar 2026',
    );
    expect(projectNameFor('Incorporation', oneTimePeriod('2026-03-02'))).toBe('Incorporation');
    expect(oneTimePeriod('2026-03-02')).toEqual({
      key: 'once',
      label: '',
      start: '2026-03-02',
      end: '2026-03-02',
    });
  });
});

describe('periodsToGenerate', () => {
  const rule = { dayOfMonth: 20, monthsAfterPeriod: 1 };
  it('starts at the earliest period still due and runs through the horizon', () => {
    // On 2026-03-05 February's return (due 20 March) is still to do; January's (due 20 Feb) is past.
    expect(periodsToGenerate('monthly', 1, rule, '2026-03-05', '2026-04-05').map((p) => p.key)).toEqual([
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    // On its due day the period is still included, the day after it is not.
    expect(periodsToGenerate('monthly', 1, rule, '2026-03-20', '2026-03-20')[0]?.key).toBe('2026-02');
    expect(periodsToGenerate('monthly', 1, rule, '2026-03-21', '2026-03-21')[0]?.key).toBe('2026-03');
  });

  it('without a rule begins at the current period', () => {
    expect(periodsToGenerate('quarterly', 4, null, '2026-05-01', '2026-07-01').map((p) => p.key)).toEqual([
      '2026-Q1',
      '2026-Q2',
    ]);
  });
});
