import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { timesheetEntries } from '../../db/schema';
import { billRateOfEntry, costRateOfEntry } from './rates';

/** What a member's week is worth, in the currency's minor unit. */
export type TWeekMoney = {
  /** Billable time × its billing rate. */
  billable: number;
  /** All time × the member's cost rate. */
  cost: number;
  /** Some of it is not approved: valued at today's rates, and may change until approval freezes it. */
  estimate: boolean;
  /** Billable minutes that no billing rate covers (worth nothing until one is set). */
  unratedMinutes: number;
};

/**
 * Each member's week valued in one grouped query: approved entries at the rates frozen on them,
 * the rest at the rates in force now (rates.ts). Only for callers who see money.
 */
export async function weekMoney(db: TExecutor, orgId: string, from: string, to: string) {
  const bill = sql`${timesheetEntries.minutes}::bigint * ${billRateOfEntry}`;
  const cost = sql`${timesheetEntries.minutes}::bigint * ${costRateOfEntry}`;
  const rows = await db
    .select({
      memberId: timesheetEntries.memberId,
      billable: sql<number>`coalesce(round(sum(${bill}) filter (where ${timesheetEntries.billable}) / 60.0), 0)::float8`,
      cost: sql<number>`coalesce(round(sum(${cost}) / 60.0), 0)::float8`,
      estimate: sql<boolean>`bool_or(${timesheetEntries.status} <> 'approved')`,
      unratedMinutes: sql<number>`coalesce(sum(${timesheetEntries.minutes}) filter (where ${timesheetEntries.billable} and ${billRateOfEntry} is null), 0)::int`,
    })
    .from(timesheetEntries)
    .where(
      and(
        eq(timesheetEntries.orgId, orgId),
        gte(timesheetEntries.date, from),
        lte(timesheetEntries.date, to),
      ),
    )
    .groupBy(timesheetEntries.memberId);
  return new Map<string, TWeekMoney>(
    rows.map(({ memberId, ...money }) => [memberId, { ...money, estimate: money.estimate === true }]),
  );
}
