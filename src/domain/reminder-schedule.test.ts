import { describe, expect, it } from 'vitest';
import { expiryRemindAt, nextOccurrence } from './reminder-schedule';

const at = (iso: string) => new Date(iso);

describe('nextOccurrence', () => {
  it('does not repeat a one-off', () => {
    expect(nextOccurrence(at('2026-01-31T09:00:00Z'), 'none', at('2026-01-31T09:00:00Z'), 'UTC')).toBeNull();
  });

  it('keeps the 31st across short months, counting from the anchor', () => {
    const anchor = at('2026-01-31T09:00:00Z');
    const feb = nextOccurrence(anchor, 'monthly', anchor, 'UTC');
    expect(feb?.toISOString()).toBe('2026-02-28T09:00:00.000Z');
    const mar = nextOccurrence(anchor, 'monthly', feb as Date, 'UTC');
    expect(mar?.toISOString()).toBe('2026-03-31T09:00:00.000Z');
    const apr = nextOccurrence(anchor, 'monthly', mar as Date, 'UTC');
    expect(apr?.toISOString()).toBe('2026-04-30T09:00:00.000Z');
  });

  it('lands on 29 February in a leap year, and on the 28th otherwise', () => {
    const anchor = at('2027-01-31T09:00:00Z');
    expect(nextOccurrence(anchor, 'monthly', anchor, 'UTC')?.toISOString()).toBe('2027-02-28T09:00:00.000Z');
    const leap = at('2028-01-31T09:00:00Z');
    expect(nextOccurrence(leap, 'monthly', leap, 'UTC')?.toISOString()).toBe('2028-02-29T09:00:00.000Z');
    const yearly = at('2028-02-29T09:00:00Z');
    expect(nextOccurrence(yearly, 'yearly', yearly, 'UTC')?.toISOString()).toBe('2029-02-28T09:00:00.000Z');
  });

  it('steps quarters from month ends', () => {
    const anchor = at('2026-11-30T09:00:00Z');
    const next = nextOccurrence(anchor, 'quarterly', anchor, 'UTC');
    expect(next?.toISOString()).toBe('2027-02-28T09:00:00.000Z');
    expect(nextOccurrence(anchor, 'quarterly', next as Date, 'UTC')?.toISOString()).toBe(
      '2027-05-30T09:00:00.000Z',
    );
  });

  it('keeps the local hour across a daylight-saving change', () => {
    // 09:00 in New York is 14:00Z in winter and 13:00Z in summer (DST began 8 March 2026).
    const anchor = at('2026-03-06T14:00:00Z');
    const weekly = nextOccurrence(anchor, 'weekly', anchor, 'America/New_York');
    expect(weekly?.toISOString()).toBe('2026-03-13T13:00:00.000Z');
    const daily = nextOccurrence(anchor, 'daily', at('2026-03-08T12:00:00Z'), 'America/New_York');
    expect(daily?.toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('skips occurrences missed while nothing ran, to the first one after now', () => {
    const anchor = at('2026-01-15T09:00:00Z');
    expect(nextOccurrence(anchor, 'daily', at('2026-03-01T10:00:00Z'), 'UTC')?.toISOString()).toBe(
      '2026-03-02T09:00:00.000Z',
    );
    expect(nextOccurrence(anchor, 'monthly', at('2030-06-15T09:00:00Z'), 'UTC')?.toISOString()).toBe(
      '2030-07-15T09:00:00.000Z',
    );
    // Exactly on an occurrence: the next one, never the same instant twice.
    expect(nextOccurrence(anchor, 'weekly', at('2026-01-22T09:00:00Z'), 'UTC')?.toISOString()).toBe(
      '2026-01-29T09:00:00.000Z',
    );
  });
});

describe('expiryRemindAt', () => {
  it('is the chosen days before the expiry, at 09:00 in the firm’s zone', () => {
    expect(expiryRemindAt('2026-12-31', 30, 'UTC').toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(expiryRemindAt('2026-12-31', 30, 'Asia/Kolkata').toISOString()).toBe('2026-12-01T03:30:00.000Z');
    expect(expiryRemindAt('2026-03-10', 0, 'UTC').toISOString()).toBe('2026-03-10T09:00:00.000Z');
  });

  it('crosses month, year and leap-day boundaries', () => {
    expect(expiryRemindAt('2027-01-05', 10, 'UTC').toISOString()).toBe('2026-12-26T09:00:00.000Z');
    expect(expiryRemindAt('2028-03-01', 1, 'UTC').toISOString()).toBe('2028-02-29T09:00:00.000Z');
    // New York in summer is UTC−4.
    expect(expiryRemindAt('2026-07-01', 0, 'America/New_York').toISOString()).toBe(
      '2026-07-01T13:00:00.000Z',
    );
  });
});
