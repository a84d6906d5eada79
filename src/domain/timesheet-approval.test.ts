import { describe, expect, it } from 'vitest';
import { dayFlags, ZApprovalSettings } from './timesheet-approval';

const day = (over: Partial<Parameters<typeof dayFlags>[0]>) => ({
  date: '2026-03-05', // a Thursday
  minutes: 480,
  expected: 480,
  working: true,
  absence: null,
  ...over,
});
const kinds = (d: Parameters<typeof dayFlags>[0], limit = 600) => dayFlags(d, limit).map((f) => f.kind);

describe('dayFlags', () => {
  it('leaves an ordinary day and an empty day alone', () => {
    expect(kinds(day({}))).toEqual([]);
    expect(kinds(day({ minutes: 0, working: false, date: '2026-03-07' }))).toEqual([]);
    expect(kinds(day({ minutes: 600 }))).toEqual([]);
  });
  it('flags a day past the firm limit', () => {
    expect(dayFlags(day({ minutes: 14 * 60 }), 600)).toEqual([
      { kind: 'overLimit', label: "14:00 is over the firm's daily limit of 10:00" },
    ]);
  });
  it('flags time on a holiday or leave beyond what was left of the day', () => {
    const holiday = { kind: 'holiday' as const, name: 'Diwali' };
    expect(kinds(day({ expected: 0, absence: holiday }))).toEqual(['holiday']);
    // A half-day holiday worked for its other half is ordinary.
    expect(kinds(day({ minutes: 240, expected: 240, absence: holiday }))).toEqual([]);
    expect(kinds(day({ minutes: 60, expected: 0, absence: { kind: 'leave', name: 'Sick leave' } }))).toEqual([
      'leave',
    ]);
  });
  it('flags weekends and other days off, and several reasons at once', () => {
    expect(kinds(day({ date: '2026-03-08', working: false, expected: 0 }))).toEqual(['weekend']);
    expect(kinds(day({ working: false, expected: 0 }))).toEqual(['dayOff']);
    expect(kinds(day({ date: '2026-03-07', working: false, minutes: 11 * 60 }))).toEqual([
      'overLimit',
      'weekend',
    ]);
  });
});

describe('ZApprovalSettings', () => {
  it('reads the limit as hours typed, within 1 to 24', () => {
    expect(ZApprovalSettings.parse({ dailyLimitMinutes: '9:30' })).toEqual({
      dailyLimitMinutes: 570,
      approversApproverId: null,
    });
    expect(ZApprovalSettings.safeParse({ dailyLimitMinutes: '0:30' }).success).toBe(false);
    expect(ZApprovalSettings.safeParse({ dailyLimitMinutes: 'ten' }).success).toBe(false);
  });
});
