import { describe, expect, it } from 'vitest';
import { MAX_RATE, parseRate, RATE_FORMAT, RATE_TOO_HIGH, rateText, ZRateSet } from './timesheet-rates';

describe('rates typed in major units', () => {
  it('reads amounts into minor units with the currency’s digits', () => {
    expect(parseRate('1500', 2)).toEqual({ rate: 150000 });
    expect(parseRate(' 1500.5 ', 2)).toEqual({ rate: 150050 });
    expect(parseRate('1500,50', 2)).toEqual({ rate: 150050 });
    expect(parseRate('1500.', 2)).toEqual({ rate: 150000 });
    expect(parseRate('', 2)).toEqual({ rate: null });
    expect(parseRate('1500', 0)).toEqual({ rate: 1500 });
    expect(parseRate('1500.00', 0)).toEqual({ rate: 1500 });
  });

  it('refuses what is not an amount, too precise, negative or too high', () => {
    expect(parseRate('15 hundred', 2)).toEqual({ error: RATE_FORMAT });
    expect(parseRate('-5', 2)).toEqual({ error: RATE_FORMAT });
    expect(parseRate('1,500.50', 2)).toEqual({ error: RATE_FORMAT });
    expect(parseRate('10.505', 2)).toEqual({ error: 'Use at most 2 decimal places' });
    expect(parseRate('10.5', 0)).toEqual({ error: 'This currency has no decimals' });
    expect(parseRate('2000000', 2)).toEqual({ error: RATE_TOO_HIGH });
  });

  it('writes a rate back as the amount a person edits', () => {
    expect(rateText(150050, 2)).toBe('1500.50');
    expect(rateText(5, 2)).toBe('0.05');
    expect(rateText(1500, 0)).toBe('1500');
    expect(rateText(null, 2)).toBe('');
  });

  it('the procedure’s schema holds the same bounds', () => {
    const ref = '0190a0c0-0000-7000-8000-000000000000';
    expect(ZRateSet.safeParse({ kind: 'client', refId: ref, rate: MAX_RATE }).success).toBe(true);
    expect(ZRateSet.safeParse({ kind: 'client', refId: ref, rate: null }).success).toBe(true);
    for (const rate of [-1, MAX_RATE + 1, 10.5, '100'])
      expect(ZRateSet.safeParse({ kind: 'client', refId: ref, rate }).success).toBe(false);
    expect(ZRateSet.safeParse({ kind: 'boss', refId: ref, rate: 1 }).success).toBe(false);
  });
});
