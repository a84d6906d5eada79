import { describe, expect, it } from 'vitest';
import {
  budgetCrossing,
  budgetLevel,
  budgetShare,
  budgetText,
  changedFields,
  parseBudget,
  ZBudget,
} from './budgets';

describe('parseBudget', () => {
  it.each([
    ['40', 2400],
    ['120', 7200],
    ['12:30', 750],
    ['250:15', 15015],
    ['7.5', 450],
    ['7,5', 450],
    ['90m', 90],
    ['1h 30m', 90],
    ['16h', 960],
  ])('reads %j as %i minutes', (text, minutes) => expect(parseBudget(text)).toBe(minutes));

  it('reads blank as no budget and refuses what it cannot read', () => {
    expect(parseBudget('  ')).toBeNull();
    for (const text of ['lots', '1:75', '-3', '123456', '1.5.5']) expect(parseBudget(text)).toBeUndefined();
  });

  it('writes a budget back as h:mm, empty for none, and a change in words', () => {
    expect(budgetText(750)).toBe('12:30');
    expect(budgetText(null)).toBe('');
    expect(
      changedFields({ dueDate: { from: null, to: '2026-03-31' }, budgetMinutes: { from: 600, to: null } }),
    ).toBe('dueDate, hours budget 10:00 → none');
  });
});

describe('ZBudget', () => {
  it('takes minutes or typed hours, and no budget as null', () => {
    expect(ZBudget.parse(90)).toBe(90);
    expect(ZBudget.parse('1:30')).toBe(90);
    expect(ZBudget.parse('')).toBeNull();
    expect(ZBudget.parse(undefined)).toBeNull();
    expect(ZBudget.parse('0')).toBeNull();
  });
  it('refuses a negative, too large or unreadable budget', () => {
    expect(ZBudget.safeParse(-5).error?.issues[0]?.message).toBe('A budget cannot be negative');
    expect(ZBudget.safeParse('10001').error?.issues[0]?.message).toBe('A budget is at most 10,000 hours');
    expect(ZBudget.safeParse('soon').error?.issues[0]?.message).toBe('Type hours like 40, 12:30 or 7.5');
  });
});

describe('budget thresholds', () => {
  it('reach 80 % and 100 % exactly at those shares, and never without a budget', () => {
    expect(budgetLevel(479, 600)).toBe(0);
    expect(budgetLevel(480, 600)).toBe(80);
    expect(budgetLevel(599, 600)).toBe(80);
    expect(budgetLevel(600, 600)).toBe(100);
    expect(budgetLevel(9000, 600)).toBe(100);
    expect(budgetLevel(9000, null)).toBe(0);
  });

  it('announce a level once, the highest one when a change passes both', () => {
    expect(budgetCrossing(0, 480, 600)).toEqual({ level: 80, notice: 80 });
    expect(budgetCrossing(80, 500, 600)).toEqual({ level: 80, notice: null });
    expect(budgetCrossing(80, 600, 600)).toEqual({ level: 100, notice: 100 });
    expect(budgetCrossing(100, 700, 600)).toEqual({ level: 100, notice: null });
    expect(budgetCrossing(0, 700, 600)).toEqual({ level: 100, notice: 100 });
  });

  it('forget a level when the time falls back under it, so crossing again announces again', () => {
    expect(budgetCrossing(100, 500, 600)).toEqual({ level: 80, notice: null });
    expect(budgetCrossing(80, 100, 600)).toEqual({ level: 0, notice: null });
    expect(budgetCrossing(0, 480, 600)).toEqual({ level: 80, notice: 80 });
  });

  it('give the share used in whole percent', () => {
    expect(budgetShare(450, 600)).toBe(75);
    expect(budgetShare(450, null)).toBeNull();
  });
});
