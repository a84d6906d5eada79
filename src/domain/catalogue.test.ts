import { describe, expect, it } from 'vitest';
import { isIsoDate } from './days';
import { ZEngagementInput } from './engagements';
import { dueDateRulePreview, ordinal, ZServiceInput } from './services';

describe('service catalogue rules', () => {
  it('describes a due-date rule in plain words', () => {
    expect(dueDateRulePreview({ dayOfMonth: 20, monthsAfterPeriod: 1 })).toBe(
      '20th of the month after the period',
    );
    expect(dueDateRulePreview({ dayOfMonth: 1, monthsAfterPeriod: 0 })).toBe(
      '1st of the last month of the period',
    );
    expect(dueDateRulePreview({ dayOfMonth: 31, monthsAfterPeriod: 3 })).toBe(
      'Last day of the 3rd month after the period',
    );
    expect(dueDateRulePreview(null)).toBe('No due date');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
    ]);
  });

  it('keeps fees as 2-place decimals, never negative, and upper-cases codes', () => {
    const base = { name: 'Audit', code: 'aud', frequency: 'yearly' as const };
    expect(ZServiceInput.parse({ ...base, defaultFee: '12.5' })).toMatchObject({
      code: 'AUD',
      defaultFee: '12.50',
    });
    expect(ZServiceInput.parse({ ...base, defaultFee: '' }).defaultFee).toBeNull();
    expect(ZServiceInput.safeParse({ ...base, defaultFee: '-1' }).success).toBe(false);
    expect(ZServiceInput.safeParse({ ...base, defaultFee: '1.001' }).success).toBe(false);
  });

  it('checks engagement dates: real calendar days, end on or after start', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    const base = { serviceId: '00000000-0000-4000-8000-000000000000', startDate: '2026-04-01' };
    expect(ZEngagementInput.safeParse({ ...base, endDate: '2026-04-01' }).success).toBe(true);
    const bad = ZEngagementInput.safeParse({ ...base, endDate: '2026-03-31' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['endDate']);
  });
});
