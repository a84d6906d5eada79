import { foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';
import { members, orgs, roles } from './org';

/**
 * A firm's key to the public API (/api/v1). Only the SHA-256 of the secret is kept; the secret is
 * shown once. The key acts with its role's rights, for the member who made it (whose assigned
 * clients bound a role limited to assigned clients), and every call names the key in the log.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the secret, shown in the list so a person can tell keys apart. */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    roleId: uuid('role_id').notNull(),
    createdById: uuid('created_by_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('api_keys_org_id_id_key').on(t.orgId, t.id),
    unique('api_keys_secret_hash_key').on(t.secretHash),
    index('api_keys_org_created_idx').on(t.orgId, t.createdAt.desc().nullsFirst()),
    foreignKey({
      name: 'api_keys_role_fk',
      columns: [t.orgId, t.roleId],
      foreignColumns: [roles.orgId, roles.id],
    }),
    foreignKey({
      name: 'api_keys_created_by_fk',
      columns: [t.orgId, t.createdById],
      foreignColumns: [members.orgId, members.id],
    }),
  ],
);

/**
 * A create's answer kept under the caller's Idempotency-Key for a day: the same key and body get
 * the same answer again, never a second record.
 */
export const apiIdempotency = pgTable(
  'api_idempotency',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: jsonb('body'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('api_idempotency_key_key').on(t.apiKeyId, t.key),
    index('api_idempotency_created_idx').on(t.createdAt),
    foreignKey({
      name: 'api_idempotency_key_fk',
      columns: [t.orgId, t.apiKeyId],
      foreignColumns: [apiKeys.orgId, apiKeys.id],
    }).onDelete('cascade'),
  ],
);
