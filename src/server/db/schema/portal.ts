import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CLIENT_USER_STATUSES } from '../../../domain/client-users';
import { clients } from './clients';
import { createdAt, id, orgId, updatedAt } from './columns';
import { members, orgs } from './org';

/**
 * A person outside the firm who uses the client portal (an owner, a director, a family member).
 * One row per firm and email; the clients the person may act for are in `client_user_clients`.
 * `email` is stored lower-cased: it is the portal's sign-in name.
 */
export const clientUsers = pgTable(
  'client_users',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    status: text('status', { enum: CLIENT_USER_STATUSES }).notNull().default('invited'),
    invitedBy: uuid('invited_by'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('client_users_org_id_id_key').on(t.orgId, t.id),
    unique('client_users_org_id_email_key').on(t.orgId, t.email),
    // Sign-in looks a person up by email across firms.
    index('client_users_email_idx').on(t.email),
    foreignKey({
      name: 'client_users_invited_by_fk',
      columns: [t.orgId, t.invitedBy],
      foreignColumns: [members.orgId, members.id],
    }),
  ],
);

/** Which clients a client user may act for (a family, a group of companies). */
export const clientUserClients = pgTable(
  'client_user_clients',
  {
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientUserId: uuid('client_user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.clientUserId, t.clientId] }),
    index('client_user_clients_client_idx').on(t.orgId, t.clientId),
    foreignKey({
      name: 'client_user_clients_user_fk',
      columns: [t.orgId, t.clientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_user_clients_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
  ],
);

/**
 * An invitation to the portal for one client. Only the key's hash is stored; the key travels in the
 * mailed link /clientportal/auth/invite/{key}.
 */
export const clientUserInvites = pgTable(
  'client_user_invites',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    clientUserId: uuid('client_user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    keyHash: text('key_hash').notNull(),
    invitedBy: uuid('invited_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('client_user_invites_org_id_id_key').on(t.orgId, t.id),
    unique('client_user_invites_key_hash_key').on(t.keyHash),
    // One open invitation per person and client; accepted and revoked ones stay as history.
    uniqueIndex('client_user_invites_open_idx')
      .on(t.orgId, t.clientUserId, t.clientId)
      .where(sql`accepted_at is null and revoked_at is null`),
    foreignKey({
      name: 'client_user_invites_user_fk',
      columns: [t.orgId, t.clientUserId],
      foreignColumns: [clientUsers.orgId, clientUsers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_user_invites_client_fk',
      columns: [t.orgId, t.clientId],
      foreignColumns: [clients.orgId, clients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'client_user_invites_invited_by_fk',
      columns: [t.orgId, t.invitedBy],
      foreignColumns: [members.orgId, members.id],
    }),
  ],
);

/**
 * One-time sign-in codes mailed to a portal email: hashed, short-lived, single-use, with a count of
 * wrong guesses. Keyed by email (not client user): one person may be a client user of several firms.
 */
export const portalCodes = pgTable(
  'portal_codes',
  {
    id: id(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('portal_codes_email_idx').on(t.email, t.createdAt)],
);

/**
 * Server-side portal sessions. `id` is the SHA-256 of the secret carried in the httpOnly cookie.
 * A session belongs to an email: it reaches every active client user with that email and their
 * clients, re-read on each request, so disabling a user or removing a client takes effect at once.
 */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('portal_sessions_email_idx').on(t.email),
    index('portal_sessions_expires_idx').on(t.expiresAt),
  ],
);
