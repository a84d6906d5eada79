import { sql } from 'drizzle-orm';
import { hasPermission } from '../../../domain/permissions';
import type { TRateKind } from '../../../domain/timesheet-rates';
import type { TScope } from '../../auth';
import { timesheetRates } from '../../db/schema';

// The rate rule in one place, as SQL over a timesheet_entries row: approval copies it onto the
// entries, and the team's week reads it as the estimate for time not yet approved, so an estimate
// is exactly what approval would freeze. The entry's columns are qualified by hand: in a query on
// timesheet_entries alone drizzle writes them bare, and inside the subquery a bare name would bind
// to timesheet_rates.

const entry = (column: string) => sql.raw(`"timesheet_entries"."${column}"`);

const rateOf = (kind: TRateKind, refColumn: string) =>
  sql`(select r.rate from ${timesheetRates} r
        where r.org_id = ${entry('org_id')} and r.kind = ${kind} and r.ref_id = ${entry(refColumn)})`;

/** The billing rate in force for an entry now: the most specific set, task → service → client → member. */
export const currentBillRate = sql<number | null>`coalesce(${rateOf('task', 'task_id')}, ${rateOf(
  'service',
  'service_id',
)}, ${rateOf('client', 'client_id')}, ${rateOf('member', 'member_id')})`;

/** The member's cost rate in force now. */
export const currentCostRate = sql<number | null>`${rateOf('cost', 'member_id')}`;

/** Approved time carries the rates frozen at approval; other time is valued at today's rates. */
export const billRateOfEntry = sql`case when ${entry('status')} = 'approved' then ${entry('bill_rate')} else ${currentBillRate} end`;
export const costRateOfEntry = sql`case when ${entry('status')} = 'approved' then ${entry('cost_rate')} else ${currentCostRate} end`;

/** Whether this caller may see money: rates, and what time is worth or costs. */
export const seesMoney = (scope: Pick<TScope, 'isOwner' | 'permissions'>) =>
  hasPermission(scope, 'timesheets.rates');
