import { type Column, getTableName, type SQLWrapper, sql } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '../../domain/pagination';
import type { TExecutor } from './client';
import { members } from './schema';

// SQL pieces every feature writes the same way.

/** A term for LIKE/ILIKE with its own %, _ and \ taken literally. */
export const likeLiteral = (term: string) => term.replace(/[\\%_]/g, '\\$&');

/** A LIKE/ILIKE pattern matching the term anywhere. */
export const escapeLike = (term: string) => `%${likeLiteral(term)}%`;

/**
 * A column written with its table's name, for a correlated subquery in a select list: drizzle
 * writes a one-table select's fields bare ("id"), and inside `(select … from other o where o.x =
 * "id")` a bare name is the subquery's own table's column when it has one (every table has id and
 * org_id), so the subquery would silently compare a row with itself.
 */
export const qualified = (column: Column) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** A member as people see them: first and last name, or the email when both are blank. */
export const memberName = sql<string>`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email})`;

/**
 * The rows of a raw `db.execute()`: node-postgres and PGlite answer `{ rows }`, other drivers an
 * array. The caller names the row's shape, which the SQL text decides.
 */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

/**
 * A list's count, stopped at LIST_COUNT_CAP (TPage's totalCapped): `rows` is the list's own query
 * selecting any one column, filtered as the page is. Counting a firm's every row scans its whole
 * index; counting to the cap reads at most that many entries.
 */
export async function cappedCount(
  db: TExecutor,
  rows: { limit: (n: number) => SQLWrapper },
  cap = LIST_COUNT_CAP,
): Promise<{ total: number; totalCapped: boolean }> {
  const result = await db.execute(sql`select count(*)::int as n from (${rows.limit(cap + 1)}) as counted`);
  const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}
