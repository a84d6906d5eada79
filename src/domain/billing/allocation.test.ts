import { describe, expect, it } from 'vitest';
import { allocationSummary, autoAllocate } from './allocation';
import { defaultStatementPeriod, fiscalYearStart } from './statement-period';

const open = [
  { id: 'a', balance: 10_000 },
  { id: 'b', balance: 25_000 },
  { id: 'c', balance: 5_000 },
];

describe('autoAllocate', () => {
  it('settles the oldest first, each up to its balance, and stops when the money runs out', () => {
    expect(autoAllocate(open, 30_000)).toEqual([10_000, 20_000, 0]);
    expect(autoAllocate(open, 10_000)).toEqual([10_000, 0, 0]);
  });

  it('never allocates beyond the balances: what is left over is the credit', () => {
    const amounts = autoAllocate(open, 100_000);
    expect(amounts).toEqual([10_000, 25_000, 5_000]);
    expect(allocationSummary(100_000, amounts)).toEqual({ allocated: 40_000, left: 60_000, over: false });
  });

  it('settles the invoice a payment was recorded from before the older ones', () => {
    expect(autoAllocate(open, 27_000, 'b')).toEqual([2_000, 25_000, 0]);
    expect(autoAllocate(open, 27_000, 'a')).toEqual([10_000, 17_000, 0]);
    expect(autoAllocate(open, 27_000, 'missing')).toEqual([10_000, 17_000, 0]);
  });

  it('allocates nothing from nothing, or from a negative or fractional amount beyond whole units', () => {
    expect(autoAllocate(open, 0)).toEqual([0, 0, 0]);
    expect(autoAllocate(open, -500)).toEqual([0, 0, 0]);
    expect(autoAllocate(open, 10_000.9)).toEqual([10_000, 0, 0]);
    expect(autoAllocate([], 5_000)).toEqual([]);
  });

  it('says when more is allocated than there is', () => {
    expect(allocationSummary(5_000, [3_000, 3_000])).toEqual({ allocated: 6_000, left: -1_000, over: true });
  });
});

describe('the statement period', () => {
  it('opens on the fiscal year so far', () => {
    expect(defaultStatementPeriod('2026-11-20', 4)).toEqual({ from: '2026-04-01', to: '2026-11-20' });
    expect(defaultStatementPeriod('2027-02-03', 4)).toEqual({ from: '2026-04-01', to: '2027-02-03' });
    expect(fiscalYearStart('2026-04-01', 4)).toBe('2026-04-01');
    expect(fiscalYearStart('2026-03-31', 4)).toBe('2025-04-01');
    expect(fiscalYearStart('2026-07-15', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-09-30', 10)).toBe('2025-10-01');
  });
});
