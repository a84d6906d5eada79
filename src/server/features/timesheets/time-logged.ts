import { type SQL, sql } from 'drizzle-orm';
import { entry, rateJoins } from './rates';

/**
 * Time logged, as the body of a CTE over the entries `where` picks (conditions on
 * `timesheet_entries`), one row per `key` column's value or one row for the lot: minutes, billable
 * and other minutes and, with `money`, what the billable time is worth and what all of it cost, in
 * the currency's minor unit, and whether any of it is an estimate (not approved, so valued at
 * today's rates). Approved time carries its frozen rates, so it is summed from
 * timesheet_entries_org_date_minutes_idx alone; only time not yet approved is joined to today's
 * rates, from timesheet_entries_unapproved_idx alone (both indexes hold every column read here: on a
 * database shared by many firms a firm's entries lie a heap page each, so reading the table was most
 * of the reports' and the team week's time). Joining every entry of a period to the rates was most
 * of the team summary's time.
 */
export function timeLogged(where: SQL, money: boolean, key?: 'member_id' | 'client_id'): SQL {
  const keyColumn = key ? sql`${entry(key)} as ${sql.raw(key)},` : sql``;
  const row = (bill: SQL, cost: SQL, unapproved: SQL) => sql`${keyColumn} ${entry('minutes')} as minutes,
    ${entry('billable')} as billable, ${unapproved} as unapproved,
    case when ${entry('billable')} then ${entry('minutes')}::bigint * ${bill} end as value,
    ${entry('minutes')}::bigint * ${cost} as cost`;
  const { joins, billRate, costRate } = rateJoins;
  const entries = money
    ? sql`select ${row(entry('bill_rate'), entry('cost_rate'), sql`false`)}
        from timesheet_entries where ${where} and ${entry('status')} = 'approved'
        union all
        select ${row(billRate, costRate, sql`true`)}
        from timesheet_entries ${joins} where ${where} and ${entry('status')} <> 'approved'`
    : sql`select ${row(sql`null::numeric`, sql`null::numeric`, sql`false`)} from timesheet_entries where ${where}`;
  return sql`
      select ${key ? sql`${sql.raw(key)},` : sql``} coalesce(sum(minutes), 0)::int as minutes,
        coalesce(sum(minutes) filter (where billable), 0)::int as billable,
        coalesce(sum(minutes) filter (where not billable), 0)::int as other,
        -- What no rate covers: without these a report's zero value cannot tell "worth nothing" from
        -- "no rate set".
        coalesce(sum(minutes) filter (where billable and value is null), 0)::int as unrated,
        coalesce(sum(minutes) filter (where cost is null), 0)::int as uncosted,
        coalesce(round(sum(value) / 60.0), 0)::float8 as value,
        coalesce(round(sum(cost) / 60.0), 0)::float8 as cost,
        coalesce(bool_or(unapproved), false) as estimate
      from (${entries}) logged ${key ? sql`group by ${sql.raw(key)}` : sql``}`;
}
