import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';

// UUIDv7 keys are generated in the app: they sort by time (kind to b-tree indexes) and PostgreSQL 15
// has no uuidv7() of its own.
export const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => uuidv7());

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const orgId = () => uuid('org_id').notNull();

/**
 * A jsonb column, read as the driver hands it over. node-postgres and PGlite both parse jsonb
 * already; Drizzle's own jsonb parses a string value a second time, so a client's answer "123"
 * came back as the number 123, "true" as true and "null" as null (each other string paid for a
 * thrown exception). Every jsonb column of the schema is this one.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
});

// Firm data refers to firm data only by (org_id, x) → (org_id, id) keys, so no row can point into
// another firm (src/server/db/foreign-keys.test.ts reads pg_constraint to hold every table to it).
// A key whose deletion should only clear the link is ON DELETE SET NULL (x) (PostgreSQL 15+): a
// plain SET NULL would clear org_id too, which is NOT NULL. Drizzle can only say .onDelete('set null'),
// so the schema says that (and names the column in a comment) and the migration that adds the key is
// edited after `npm run db:generate` to read SET NULL ("x"); the snapshot keeps 'set null', so later
// generations see no change. A migration that drops and re-adds such a key needs the same edit;
// foreign-keys.test.ts fails on a set-null key that would clear org_id.
