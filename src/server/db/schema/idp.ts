import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { jsonb } from './columns';

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

export const IDP_USER_STATUSES = [
  'UNCONFIRMED',
  'CONFIRMED',
  'FORCE_CHANGE_PASSWORD',
  'RESET_REQUIRED',
] as const;
export type TIdpUserStatus = (typeof IDP_USER_STATUSES)[number];

/**
 * A user of the identity provider's pool (pool-wide, not firm data). `id` is the `sub`. The
 * password is kept twice, never in clear: a scrypt hash (USER_PASSWORD_AUTH) and an SRP salt and
 * verifier (USER_SRP_AUTH); both are secrets.
 */
export const idpUsers = pgTable(
  'idp_users',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    /** Lower-cased user name: user names are case-insensitive. */
    usernameKey: text('username_key').notNull(),
    /** Lower-cased email, for sign-in by email and alias checks. */
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Every other attribute, by Cognito name (given_name, custom:…); never sub or *_verified. */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: IDP_USER_STATUSES }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    passwordHash: text('password_hash').notNull(),
    srpSalt: text('srp_salt').notNull(),
    srpVerifier: text('srp_verifier').notNull(),
    /** The verified TOTP key (base32), sealed with the vault's master key: see idp/mfa.ts. */
    totpSecret: text('totp_secret'),
    /** A key from AssociateSoftwareToken waiting for VerifySoftwareToken; the verified one works meanwhile. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The 30-second step of the last TOTP code accepted: a code is good once. */
    totpLastStep: integer('totp_last_step'),
    totpDeviceName: text('totp_device_name'),
    /** SetUserMFAPreference's Enabled for SOFTWARE_TOKEN_MFA: sign-ins ask for a code. */
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** SetUserMFAPreference's Enabled for EMAIL_OTP: sign-ins mail a code to the verified email. */
    emailMfaEnabled: boolean('email_mfa_enabled').notNull().default(false),
    /** SOFTWARE_TOKEN_MFA or EMAIL_OTP when preferred, else null. */
    mfaPreferred: text('mfa_preferred'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [uniqueIndex('idp_users_username_key').on(t.usernameKey), index('idp_users_email_idx').on(t.email)],
);

/**
 * One row per sign-in (its `origin_jti`): the refresh token's hash and the revocation mark. The row
 * outlives the user (user_id set null) so tokens of a deleted user stay revoked until they expire.
 */
export const idpSessions = pgTable(
  'idp_sessions',
  {
    originJti: text('origin_jti').primaryKey(),
    userId: uuid('user_id').references(() => idpUsers.id, { onDelete: 'set null' }),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    deviceKey: text('device_key'),
    /** The scopes a hosted sign-in granted (null: the SDK's default), kept for its refreshes. */
    scope: text('scope'),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idp_sessions_refresh_token_key').on(t.refreshTokenHash),
    index('idp_sessions_user_idx').on(t.userId),
  ],
);

/**
 * Recovery codes (not a Cognito feature): ten per user, each usable once in place of a TOTP code.
 * Only a keyed hash (HMAC under the server's keyed-hash key, `vault_server_secrets`) is stored; a
 * new set replaces the old.
 */
export const idpRecoveryCodes = pgTable(
  'idp_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => idpUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** Confirmation, reset and attribute codes: hashed, expiring, with an attempt count. */
export const idpCodes = pgTable(
  'idp_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => idpUsers.id, { onDelete: 'cascade' }),
    /** signup | reset | attr:email */
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.purpose] })],
);

/**
 * Pending sign-in steps (SRP secret blocks, challenge sessions), keyed by the SHA-256 of the
 * opaque value handed to the client; single-use (deleted when answered) and short-lived.
 */
export const idpChallenges = pgTable(
  'idp_challenges',
  {
    id: text('id').primaryKey(),
    /** Null for the stand-in step an unknown user name gets (it can only end in a wrong password). */
    userId: uuid('user_id').references(() => idpUsers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('idp_challenges_expires_idx').on(t.expiresAt)],
);

/** Tracked devices. Salt and verifier (device SRP) are set by ConfirmDevice. */
export const idpDevices = pgTable(
  'idp_devices',
  {
    deviceKey: text('device_key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => idpUsers.id, { onDelete: 'cascade' }),
    groupKey: text('group_key').notNull(),
    salt: text('salt'),
    verifier: text('verifier'),
    name: text('name'),
    /** remembered | not_remembered */
    rememberedStatus: text('remembered_status'),
    lastIp: text('last_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastAuthenticatedAt: timestamp('last_authenticated_at', { withTimezone: true }),
  },
  (t) => [index('idp_devices_user_idx').on(t.userId, t.createdAt)],
);

/** Failure and send counters for lock-outs, shared by every instance. */
export const idpAttempts = pgTable('idp_attempts', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
