import { describe, expect, it } from 'vitest';
import { formatMinutes, isLocked, parseDuration, ZCellInput, ZEntryInput, ZMinutes } from './timesheets';

describe('parseDuration', () => {
  it.each([
    ['1:30', 90],
    ['1.5', 90],
    ['1,5', 90],
    ['.25', 15],
    ['90m', 90],
    ['45 min', 45],
    ['2h', 120],
    ['1h 30m', 90],
    ['1h30', 90],
    ['8', 480],
    ['', 0],
    ['  0:05 ', 5],
  ])('reads %j as %i minutes', (text, minutes) => expect(parseDuration(text)).toBe(minutes));

  it.each(['1:75', 'abc', '1:3', '-1', '1.5.5', '100', '1:30:00'])('refuses %j', (text) =>
    expect(parseDuration(text)).toBeNull(),
  );

  it('writes minutes back as h:mm, empty for none', () => {
    expect(formatMinutes(90)).toBe('1:30');
    expect(formatMinutes(5)).toBe('0:05');
    expect(formatMinutes(0)).toBe('');
  });
});

describe('week maths', () => {
  it('locks days on or before the lock date once the grace days have passed', () => {
    const lock = { lockDate: '2026-03-31', graceDays: 5 };
    expect(isLocked('2026-03-31', lock, '2026-04-05')).toBe(false);
    expect(isLocked('2026-03-31', lock, '2026-04-06')).toBe(true);
    expect(isLocked('2026-04-01', lock, '2026-05-01')).toBe(false);
    expect(isLocked('2026-03-01', { lockDate: null, graceDays: 0 }, '2030-01-01')).toBe(false);
  });
});

describe('entry schemas', () => {
  const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
    r.error?.issues.map((i) => i.message).join('; ');
  it('takes typed hours and numbers alike', () => {
    expect(ZMinutes.parse('1:30')).toBe(90);
    expect(ZMinutes.parse(90)).toBe(90);
  });
  it('refuses more than 12 hours, unreadable hours, far dates and NUL bytes', () => {
    expect(message(ZMinutes.safeParse('13'))).toBe('An entry cannot be longer than 12 hours');
    expect(message(ZMinutes.safeParse('1:75'))).toBe('Type hours like 1:30, 1.5 or 90m');
    const far = ZEntryInput.safeParse({ date: '2999-01-01', minutes: 60, note: 'x' });
    expect(message(far)).toContain('between the years 2000 and 2099');
    const nul = ZEntryInput.safeParse({ date: '2026-03-02', minutes: 60, note: 'a\u0000b' });
    expect(message(nul)).toContain('not allowed');
  });
  it('needs a note when neither a client nor a task is set', () => {
    expect(message(ZEntryInput.safeParse({ date: '2026-03-02', minutes: 60 }))).toBe(
      'Add a note when the time is for neither a client nor a task',
    );
    const clientId = '0190c0de-0000-7000-8000-000000000001';
    expect(ZEntryInput.safeParse({ date: '2026-03-02', minutes: 60, clientId }).success).toBe(true);
    // Clearing a cell needs no note.
    expect(ZCellInput.safeParse({ date: '2026-03-02', minutes: 0 }).success).toBe(true);
  });
});
