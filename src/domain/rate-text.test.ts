import { describe, expect, it } from 'vitest';
import { MAX_RATE, parseRate } from './rate-text';
import { ZRateValue } from './timesheet-rates';

// parseRate checks its result without zod (the portal's first load): it must refuse exactly what
// ZRateValue refuses.
describe('parseRate without zod', () => {
  const texts = [
    '0',
    '1500',
    '1500.5',
    '1500,50',
    '999999999999',
    '1000000',
    '1000000.01',
    '100000000',
    '100000001',
  ];
  for (const digits of [0, 2, 3]) {
    it(`agrees with ZRateValue for ${digits} decimal digits`, () => {
      for (const text of texts) {
        const parsed = parseRate(text, digits);
        if ('error' in parsed) {
          if (parsed.error.startsWith('Use at most') || parsed.error.includes('no decimals')) continue;
          const rate = Number(text.replace(',', '.')) * 10 ** digits;
          expect(ZRateValue.safeParse(Math.round(rate)).success, text).toBe(false);
        } else if (parsed.rate !== null) {
          expect(ZRateValue.safeParse(parsed.rate).success, text).toBe(true);
        }
      }
    });
  }
  it('refuses one above the highest rate', () => {
    expect(parseRate(String(MAX_RATE + 1), 0)).toEqual({ error: expect.stringContaining('higher') });
    expect(parseRate(String(MAX_RATE), 0)).toEqual({ rate: MAX_RATE });
  });
});
