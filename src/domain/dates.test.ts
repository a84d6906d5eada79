import { describe, expect, it } from 'vitest';
import { relativeDate } from './dates';

describe('relativeDate', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('shows a valid date relative to now', () => {
    expect(relativeDate(new Date('2026-11-25T12:00:00Z'), now)).toBe('in 3 days');
    expect(relativeDate('2026-11-22T10:00:00Z', now)).toBe('about 2 hours ago');
  });
  it('shows a dash for anything that is not a valid date', () => {
    expect(relativeDate('garbage', now)).toBe('-');
    expect(relativeDate(null, now)).toBe('-');
    expect(relativeDate(undefined, now)).toBe('-');
    expect(relativeDate('', now)).toBe('-');
    expect(relativeDate(new Date(Number.NaN), now)).toBe('-');
  });
});
