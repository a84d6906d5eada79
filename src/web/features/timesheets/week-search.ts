import { weekStartOf } from '@domain/days';
export type TWeekSearch = { week?: string; view?: 'rates' };
export type TTeamSearch = TWeekSearch & { member?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /team/timesheets?view=rates: the firm's rates instead of the team's week; ?member= the member
 * whose week is open beside it.
 */
export function parseTeamSearch(search: Record<string, unknown>): TTeamSearch {
  const member = typeof search.member === 'string' && UUID.test(search.member) ? search.member : null;
  return {
    ...parseWeekSearch(search),
    ...(search.view === 'rates' ? { view: 'rates' as const } : {}),
    ...(member ? { member } : {}),
  };
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
