import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Token-signing keys of the embedded identity provider. They live in the database, not on disk, so
 * every server instance signs and verifies with the same keys.
 */
export const idpSigningKeys = pgTable('idp_signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  privatePem: text('private_pem').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
