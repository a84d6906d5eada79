import { foreignKey, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiKeys } from './api';
import { id, jsonb, orgId } from './columns';
import { members, orgs } from './org';
import { clientUsers } from './portal';

/** Append-only audit trail: rows are inserted in the mutation's transaction and never updated. */
export const systemLog = pgTable(
  'system_log',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    actorKind: text('actor_kind', { enum: ['member', 'client_user', 'system', 'automation'] }).notNull(),
    actorMemberId: uuid('actor_member_id'),
    actorClientUserId: uuid('actor_client_user_id'),
    /** The API key a call was made with (the member is the one who made the key). */
    actorApiKeyId: uuid('actor_api_key_id'),
    action: text('action').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id'),
    summary: text('summary').notNull(),
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('system_log_org_at_idx').on(t.orgId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('system_log_org_actor_at_idx').on(t.orgId, t.actorMemberId, t.at.desc().nullsFirst()),
    index('system_log_org_record_idx').on(t.orgId, t.recordType, t.recordId),
    foreignKey({
      name: 'system_log_actor_fk',
      columns: [t.orgId, t.actorMemberId],
      foreignColumns: [members.orgId, members.id],
    }),
    foreignKey({
      name: 'system_log_actor_api_key_fk',
      columns: [t.orgId, t.actorApiKeyId],
      foreignColumns: [apiKeys.orgId, apiKeys.id],
    }),
    foreignKey({
      name: 'system_log_actor_client_user_fk',
      columns: [t.orgId, t.actorClientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }),
  ],
);
