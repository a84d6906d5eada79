import { sql } from 'drizzle-orm';
import { members } from './schema';

// SQL pieces every feature writes the same way.

/** A term for LIKE/ILIKE with its own %, _ and \ taken literally. */
export const likeLiteral = (term: string) => term.replace(/[\\%_]/g, '\\$&');

/** A LIKE/ILIKE pattern matching the term anywhere. */
export const escapeLike = (term: string) => `%${likeLiteral(term)}%`;

/** A member as people see them: first and last name, or the email when both are blank. */
export const memberName = sql<string>`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email})`;

/**
 * The rows of a raw `db.execute()`: node-postgres and PGlite answer `{ rows }`, other drivers an
 * array. The caller names the row's shape, which the SQL text decides.
 */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
