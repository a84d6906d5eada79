// The period a client's statement opens on: the firm's fiscal year so far.

/** The first day of the fiscal year `today` falls in, for a year starting in `startMonth` (1-12). */
export function fiscalYearStart(today: string, startMonth: number): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const first = month >= startMonth ? year : year - 1;
  return `${first}-${String(startMonth).padStart(2, '0')}-01`;
}

/** This fiscal year up to today: what a statement shows until a person picks another period. */
export function defaultStatementPeriod(today: string, startMonth: number) {
  return { from: fiscalYearStart(today, startMonth), to: today };
}
