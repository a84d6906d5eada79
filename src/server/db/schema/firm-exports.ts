import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { FIRM_EXPORT_STATUSES } from '../../../domain/firm-export';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/**
 * A whole-firm export: built by a job into one zip in the file store, downloadable until it
 * expires. Progress lives on the row so any instance's screen reads it.
 */
export const firmExports = pgTable(
  'firm_exports',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by'),
    status: text('status', { enum: FIRM_EXPORT_STATUSES }).notNull().default('queued'),
    includeVault: boolean('include_vault').notNull().default(false),
    /** The vault passphrase, sealed by the vault's master key, until the job has used it. */
    passphraseSealed: text('passphrase_sealed'),
    step: text('step'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    error: text('error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('firm_exports_org_id_id_key').on(t.orgId, t.id),
    index('firm_exports_org_created_idx').on(t.orgId, t.createdAt),
    index('firm_exports_expires_idx').on(t.expiresAt),
    index('firm_exports_storage_key_idx').on(t.storageKey),
    foreignKey({
      name: 'firm_exports_requested_by_fk',
      columns: [t.orgId, t.requestedBy],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (requested_by)
  ],
);
