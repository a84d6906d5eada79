import { sql } from 'drizzle-orm';
import type { TDb } from '../src/server/db/client';

// Rows built in JavaScript, inserted a batch per statement as column arrays through `unnest` (one
// parameter per column), as generate-clients.ts does for its clients.

type TValue = string | number | boolean | Date | null;
/** Column name, its PostgreSQL type, and how to read it from a row. */
export type TColumn<T> = [name: string, type: string, get: (row: T) => TValue];

const BATCH = 5_000;

/** A PostgreSQL array literal with NULLs, sent as one text parameter. */
function pgArray(values: TValue[]): string {
  const items = values.map((v) => {
    if (v === null) return 'NULL';
    const text = v instanceof Date ? v.toISOString() : String(v);
    return `"${text.replace(/["\\]/g, '\\$&')}"`;
  });
  return `{${items.join(',')}}`;
}

export async function bulkInsert<T>(
  db: TDb,
  table: string,
  orgId: string,
  columns: TColumn<T>[],
  rows: readonly T[],
): Promise<void> {
  const names = columns.map((c) => c[0]).join(', ');
  // jsonb travels as text and is cast after unnest: a jsonb[] literal would need its own quoting.
  const picks = columns
    .map(([name, type]) => (type === 'jsonb' ? `t.${name}::jsonb` : `t.${name}`))
    .join(', ');
  for (let i = 0; i < rows.length; i += BATCH) {
    const slice = rows.slice(i, i + BATCH);
    const arrays = columns.map(
      ([, type, get]) => sql`${pgArray(slice.map(get))}::${sql.raw(type === 'jsonb' ? 'text' : type)}[]`,
    );
    await db.execute(sql`
      insert into ${sql.raw(table)} (org_id, ${sql.raw(names)})
      select ${orgId}::uuid, ${sql.raw(picks)}
      from unnest(${sql.join(arrays, sql`, `)}) as t(${sql.raw(names)})`);
  }
}
