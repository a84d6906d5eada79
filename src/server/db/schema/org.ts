import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  foreignKey,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, jsonb, orgId, updatedAt } from './columns';

/** The firm. */
export const orgs = pgTable('orgs', {
  id: id(),
  name: text('name').notNull(),
  legalName: text('legal_name'),
  country: text('country'),
  timeZone: text('time_zone').notNull().default('UTC'),
  currency: text('currency').notNull().default('USD'),
  fiscalYearStartMonth: smallint('fiscal_year_start_month').notNull().default(1),
  /**
   * The version of the statutory catalogue the firm accepted (issue 39): its filings' rules until it
   * reviews a newer release. The default is the version every firm had before versions were stored;
   * a new firm starts on the current one (onboarding).
   */
  statutoryCatalogueVersion: text('statutory_catalogue_version').notNull().default('2026.1'),
  addressLine1: text('address_line1'),
  addressLine2: text('address_line2'),
  city: text('city'),
  region: text('region'),
  postalCode: text('postal_code'),
  /** The firm's own registrations: [{ kind: 'PAN' | 'GSTIN' | 'EIN' | …, value }]. */
  taxIds: jsonb('tax_ids').$type<{ kind: string; value: string }[]>().notNull().default([]),
  /** Firm-wide switches that no column holds yet; features document their keys. */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  /** Bumped when the logo changes, so its URL changes and caches refresh. */
  logoVersion: smallint('logo_version').notNull().default(0),
  /** Who must use two-step sign-in: nobody, all staff, or the roles in mfa_role_ids (domain/mfa.ts). */
  mfaPolicy: text('mfa_policy', { enum: ['off', 'all', 'roles'] })
    .notNull()
    .default('off'),
  mfaRoleIds: uuid('mfa_role_ids').array().notNull().default(sql`'{}'::uuid[]`),
  /** Days a member has from when the rule first applied to them (members.mfa_required_since). */
  mfaGraceDays: smallint('mfa_grace_days').notNull().default(7),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The firm's logo: small (at most a few hundred KB), read on every portal page, and needed by
 * every instance, so it lives in the database rather than file storage.
 */
export const orgLogos = pgTable('org_logos', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: updatedAt(),
});

export const roles = pgTable(
  'roles',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    /** Limits the role to the clients a member is assigned to. */
    assignedClientsOnly: boolean('assigned_clients_only').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('roles_org_id_id_key').on(t.orgId, t.id),
    unique('roles_org_id_name_key').on(t.orgId, t.name),
  ],
);

export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;

/** A staff user in a firm; `sub` is the identity provider's subject. */
export const members = pgTable(
  'members',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    sub: text('sub'),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    picture: text('picture'),
    phone: text('phone'),
    designation: text('designation'),
    roleId: uuid('role_id').notNull(),
    isOwner: boolean('is_owner').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    status: text('status', { enum: MEMBER_STATUSES }).notNull().default('active'),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /**
     * When the firm's MFA rule started to apply to this member (the grace days count from here);
     * null while it does not. Kept by server/auth/mfa-rule.ts.
     */
    mfaRequiredSince: timestamp('mfa_required_since', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('members_org_id_id_key').on(t.orgId, t.id),
    unique('members_org_id_email_key').on(t.orgId, t.email),
    index('members_sub_idx').on(t.sub),
    foreignKey({
      name: 'members_role_fk',
      columns: [t.orgId, t.roleId],
      foreignColumns: [roles.orgId, roles.id],
    }),
  ],
);

/**
 * An invitation to join the firm as a member with a role. Only the key's hash is stored; the key
 * itself travels in the mailed link /auth/invite/{key}.
 */
export const memberInvites = pgTable(
  'member_invites',
  {
    id: id(),
    orgId: orgId().references(() => orgs.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    roleId: uuid('role_id').notNull(),
    keyHash: text('key_hash').notNull(),
    invitedBy: uuid('invited_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedMemberId: uuid('accepted_member_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('member_invites_org_id_id_key').on(t.orgId, t.id),
    unique('member_invites_key_hash_key').on(t.keyHash),
    // One open invitation per address and firm; accepted and revoked ones stay as history.
    uniqueIndex('member_invites_open_email_idx')
      .on(t.orgId, t.email)
      .where(sql`accepted_at is null and revoked_at is null`),
    foreignKey({
      name: 'member_invites_role_fk',
      columns: [t.orgId, t.roleId],
      foreignColumns: [roles.orgId, roles.id],
    }),
    foreignKey({
      name: 'member_invites_invited_by_fk',
      columns: [t.orgId, t.invitedBy],
      foreignColumns: [members.orgId, members.id],
    }),
    foreignKey({
      name: 'member_invites_accepted_member_fk',
      columns: [t.orgId, t.acceptedMemberId],
      foreignColumns: [members.orgId, members.id],
    }).onDelete('set null'), // SET NULL (accepted_member_id)
  ],
);
