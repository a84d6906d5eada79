import { sql } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { entry } from './rates';
import { timeLogged } from './time-logged';

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
 * the rest at the rates in force now (rates.ts), as the reports value time (time-logged.ts). Only
 * for callers who see money.
 */
export async function weekMoney(db: TExecutor, orgId: string, from: string, to: string) {
  const rows = rowsOf<{ member_id: string; value: number; cost: number; estimate: boolean; unrated: number }>(
    await db.execute(
      timeLogged(
        sql`${entry('org_id')} = ${orgId} and ${entry('date')} between ${from} and ${to}`,
        true,
        'member_id',
      ),
    ),
  );
  return new Map<string, TWeekMoney>(
    rows.map((r) => [
      r.member_id,
      { billable: r.value, cost: r.cost, estimate: r.estimate === true, unratedMinutes: r.unrated },
    ]),
  );
}
