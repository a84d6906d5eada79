import { describe, expect, it } from 'vitest';
import { endOfDayIn, startOfDayIn } from './time-zone';

describe('day boundaries in a time zone', () => {
  it('starts a day at local midnight', () => {
    expect(startOfDayIn('2026-10-05', 'UTC').toISOString()).toBe('2026-10-05T00:00:00.000Z');
    expect(startOfDayIn('2026-10-05', 'Asia/Kolkata').toISOString()).toBe('2026-10-04T18:30:00.000Z');
    expect(startOfDayIn('2026-07-01', 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
  });

  it('ends a day one millisecond before the next starts, across a daylight-saving change', () => {
    expect(endOfDayIn('2026-10-05', 'Asia/Kolkata').toISOString()).toBe('2026-10-05T18:29:59.999Z');
    // 8 March 2026: New York moves from UTC-5 to UTC-4 at 02:00.
    expect(startOfDayIn('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(endOfDayIn('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-09T03:59:59.999Z');
    expect(endOfDayIn('2026-12-31', 'UTC').toISOString()).toBe('2026-12-31T23:59:59.999Z');
  });
});
