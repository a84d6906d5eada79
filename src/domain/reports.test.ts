import { describe, expect, it } from 'vitest';
import { gridState, percent, ZClientSummary, ZReportViewSave } from './reports';

describe('compliance grid cells', () => {
  const today = '2026-11-24';
  it('reads filed, overdue, in progress, due, not started and not engaged from the project and engagement', () => {
    expect(gridState({ status: 'COMPLETED', dueDate: '2026-10-20' }, true, today)).toBe('filed');
    expect(gridState({ status: 'IN_PROGRESS', dueDate: '2026-11-20' }, true, today)).toBe('overdue');
    expect(gridState({ status: 'IN_REVIEW', dueDate: '2026-12-20' }, true, today)).toBe('in_progress');
    expect(gridState({ status: 'SCHEDULED', dueDate: today }, true, today)).toBe('due');
    expect(gridState(null, true, today)).toBe('not_started');
    expect(gridState(null, false, today)).toBe('not_engaged');
  });
});

describe('report inputs', () => {
  it('takes a period of up to two years, in order', () => {
    expect(ZClientSummary.safeParse({ from: '2026-01-01', to: '2026-03-31' }).success).toBe(true);
    expect(ZClientSummary.safeParse({ from: '2026-03-31', to: '2026-01-01' }).success).toBe(false);
    expect(ZClientSummary.safeParse({ from: '2024-01-01', to: '2026-03-31' }).success).toBe(false);
    expect(ZClientSummary.safeParse({ from: '2026-02-30', to: '2026-03-31' }).success).toBe(false);
    expect(
      ZClientSummary.safeParse({ from: '2026-01-01', to: '2026-03-31', sort: 'drop table' }).success,
    ).toBe(false);
  });
  it('saves only the report’s own URL keys', () => {
    expect(
      ZReportViewSave.safeParse({ report: 'client', name: 'Mine', search: { from: '2026-01-01' } }).success,
    ).toBe(true);
    expect(ZReportViewSave.safeParse({ report: 'client', name: 'Mine', search: { evil: 'x' } }).success).toBe(
      false,
    );
  });
  it('shares as whole percentages, none of nothing', () => {
    expect(percent(1, 3)).toBe(33);
    expect(percent(0, 0)).toBeNull();
  });
});
