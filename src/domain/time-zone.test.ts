import { describe, expect, it } from 'vitest';
import { clockTimeText, endOfDayIn, instantIn, parseClockTime, startOfDayIn, wallClockIn } from './time-zone';

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

describe('a time typed on the firm’s clock', () => {
  it('reads 24-hour and am/pm times, and refuses what is not a time', () => {
    expect(parseClockTime('09:00')).toBe(540);
    expect(parseClockTime('9')).toBe(540);
    expect(parseClockTime('9.30')).toBe(570);
    expect(parseClockTime('9 pm')).toBe(1260);
    expect(parseClockTime('12 am')).toBe(0);
    expect(parseClockTime('12:15 pm')).toBe(735);
    for (const bad of ['24:00', '9:75', '13 pm', 'soon', '']) expect(parseClockTime(bad)).toBeNull();
    expect(clockTimeText(545)).toBe('09:05');
  });

  it('names the same instant from the firm’s day and time, whatever the machine’s zone', () => {
    // The issue: 09:00 typed for a firm in India was read on a browser in another zone.
    const at = instantIn('2026-12-18', 540, 'Asia/Kolkata');
    expect(at.toISOString()).toBe('2026-12-18T03:30:00.000Z');
    expect(wallClockIn(at, 'Asia/Kolkata')).toEqual({ day: '2026-12-18', minutes: 540 });
    expect(wallClockIn(at, 'America/New_York')).toEqual({ day: '2026-12-17', minutes: 22 * 60 + 30 });
  });
});
