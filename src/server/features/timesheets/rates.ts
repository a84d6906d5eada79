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

export const entry = (column: string) => sql.raw(`"timesheet_entries"."${column}"`);

/** The billing rate's precedence, most specific first; the cost rate is the member's. */
const BILL_ORDER: ReadonlyArray<readonly [TRateKind, string]> = [
  ['task', 'task_id'],
  ['service', 'service_id'],
  ['client', 'client_id'],
  ['member', 'member_id'],
];
const COST: readonly [TRateKind, string] = ['cost', 'member_id'];

const rateOf = ([kind, refColumn]: readonly [TRateKind, string]) =>
  sql`(select r.rate from ${timesheetRates} r
        where r.org_id = ${entry('org_id')} and r.kind = ${kind} and r.ref_id = ${entry(refColumn)})`;

/** The billing rate in force for an entry now: the most specific set, task → service → client → member. */
export const currentBillRate = sql<number | null>`coalesce(${sql.join(BILL_ORDER.map(rateOf), sql`, `)})`;

/** The member's cost rate in force now. */
export const currentCostRate = sql<number | null>`${rateOf(COST)}`;

/**
 * The same rule for reading many entries at once (the team's week): one LEFT JOIN per kind, which
 * PostgreSQL hashes, where the correlated subqueries above would probe the rates once per entry and
 * kind (a 500-member week is 50,000 entries). Approved time carries the rates frozen at approval;
 * other time is valued at today's rates. Append `joins` after `from timesheet_entries`.
 */
export const rateJoins = (() => {
  const alias = (kind: TRateKind) => sql.raw(`rate_${kind}`);
  const join = ([kind, refColumn]: readonly [TRateKind, string]) =>
    sql`left join ${timesheetRates} ${alias(kind)} on ${alias(kind)}.org_id = ${entry('org_id')}
          and ${alias(kind)}.kind = ${kind} and ${alias(kind)}.ref_id = ${entry(refColumn)}`;
  const rate = (kind: TRateKind) => sql`${alias(kind)}.rate`;
  const approved = sql`${entry('status')} = 'approved'`;
  return {
    joins: sql.join([...BILL_ORDER, COST].map(join), sql` `),
    billRate: sql`case when ${approved} then ${entry('bill_rate')} else coalesce(${sql.join(
      BILL_ORDER.map(([kind]) => rate(kind)),
      sql`, `,
    )}) end`,
    costRate: sql`case when ${approved} then ${entry('cost_rate')} else ${rate(COST[0])} end`,
  };
})();

/** Whether this caller may see money: rates, and what time is worth or costs. */
export const seesMoney = (scope: Pick<TScope, 'isOwner' | 'permissions'>) =>
  hasPermission(scope, 'timesheets.rates');
