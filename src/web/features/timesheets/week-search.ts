import { weekStartOf } from '@domain/days';
export type TWeekSearch = { week?: string; view?: 'rates' };

/** /team/timesheets?view=rates: the firm's rates instead of the team's week. */
export function parseTeamSearch(search: Record<string, unknown>): TWeekSearch {
  return { ...parseWeekSearch(search), ...(search.view === 'rates' ? { view: 'rates' as const } : {}) };
}

/** ?week= a Monday: the week shown; anything else falls back to this week. */
export function parseWeekSearch(search: Record<string, unknown>): TWeekSearch {
  const week = typeof search.week === 'string' ? search.week : '';
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(week) &&
    week >= '2000-01-01' &&
    week <= '2099-12-31' &&
    weekStartOf(week) === week;
  return valid ? { week } : {};
}
