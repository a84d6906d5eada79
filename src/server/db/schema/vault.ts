import { sql } from 'drizzle-orm';
import { customType, foreignKey, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A credential in the password vault: a client's (client_id set) or the firm's own. The password
 * exists only sealed (features/vault/crypto.ts): ciphertext, iv and tag under a per-entry data key,
 * that key wrapped by the master key `key_id`. `search_text` holds what the list's search matches,
 * never the password.
 */
export const vaultEntries = pgTable(
  'vault_entries',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id'),
    title: text('title').notNull(),
    url: text('url'),
    username: text('username'),
    passwordCiphertext: bytea('password_ciphertext').notNull(),
    passwordIv: bytea('password_iv').notNull(),
    passwordTag: bytea('password_tag').notNull(),
    dataKeyWrapped: bytea('data_key_wrapped').notNull(),
    keyId: text('key_id').notNull(),
    notes: text('notes'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    passwordChangedBy: uuid('password_changed_by'),
    createdBy: uuid('created_by'),
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(title || ' ' || coalesce(username, '') || ' ' || coalesce(url, ''))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('vault_entries_org_id_id_key').on(t.orgId, t.id),
    index('vault_entries_org_title_idx').on(t.orgId, t.title, t.id),
    index('vault_entries_org_client_title_idx').on(t.orgId, t.clientId, t.title, t.id),
    index('vault_entries_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('vault_entries_tags_idx').using('gin', t.tags),
    // Key rotation finds the entries still wrapped by an old master key.
    index('vault_entries_key_idx').on(t.keyId),
    foreignKey({
      name: 'vault_entries_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'vault_entries_password_changed_by_fk',
      columns: [t.orgId, t.passwordChangedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (password_changed_by)
    foreignKey({
      name: 'vault_entries_created_by_fk',
      columns: [t.orgId, t.createdBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (created_by)
  ],
);

/**
 * Secrets of the server itself, sealed like one-line secrets (features/vault/secret-box.ts,
 * `v1$keyId$…`). `mac` is the key of keyed hashes (recovery codes, unknown users' stand-ins): a
 * random key of its own rather than one derived from the master key, so rotating the master key
 * re-wraps it and every hash made with it stays valid.
 */
export const vaultServerSecrets = pgTable('vault_server_secrets', {
  name: text('name').primaryKey(),
  sealed: text('sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
