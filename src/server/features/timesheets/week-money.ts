import { sql } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { timesheetEntries } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { entry, rateJoins } from './rates';

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
  const { joins, billRate, costRate } = rateJoins;
  const rows = rowsOf<{ member_id: string } & Omit<TWeekMoney, 'unratedMinutes'> & { unrated: number }>(
    await db.execute(sql`
      select ${entry('member_id')} as member_id,
        coalesce(round(sum(${entry('minutes')}::bigint * ${billRate}) filter (where ${entry('billable')}) / 60.0), 0)::float8 as billable,
        coalesce(round(sum(${entry('minutes')}::bigint * ${costRate}) / 60.0), 0)::float8 as cost,
        bool_or(${entry('status')} <> 'approved') as estimate,
        coalesce(sum(${entry('minutes')}) filter (where ${entry('billable')} and ${billRate} is null), 0)::int as unrated
      from ${timesheetEntries} ${joins}
      where ${entry('org_id')} = ${orgId} and ${entry('date')} between ${from} and ${to}
      group by ${entry('member_id')}`),
  );
  return new Map<string, TWeekMoney>(
    rows.map((r) => [
      r.member_id,
      { billable: r.billable, cost: r.cost, estimate: r.estimate === true, unratedMinutes: r.unrated },
    ]),
  );
}
