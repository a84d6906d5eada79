import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpSessions } from '../db/schema';
import type { TIdpContext } from './deps';
import { E } from './errors';
import { signTokens } from './tokens';
import type { TIdpUser } from './users';

// A sign-in is a session row keyed by its origin_jti: the refresh token (hashed) and the revocation
// mark. Access and id tokens carry origin_jti, so revoking the row kills all of them.

export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

function idClaimsOf(user: TIdpUser): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(user.attributes)) {
    if (name === 'phone_number_verified') claims[name] = value === 'true';
    else claims[name] = value;
  }
  return claims;
}

async function tokensFor(
  ctx: TIdpContext,
  user: TIdpUser,
  s: { originJti: string; authTime: number; deviceKey?: string | null; scope?: string; nonce?: string },
) {
  return signTokens(ctx.keys, {
    issuer: ctx.issuer,
    scope: s.scope,
    clientId: ctx.config.idp.clientId,
    subject: {
      sub: user.id,
      username: user.username,
      email: user.email ?? '',
      emailVerified: user.emailVerified,
      authTime: s.authTime,
      originJti: s.originJti,
      deviceKey: s.deviceKey ?? undefined,
      idClaims: { ...idClaimsOf(user), ...(s.nonce ? { nonce: s.nonce } : {}) },
    },
  });
}

/** A new sign-in: session row, refresh token and the AuthenticationResult. */
export async function startSession(
  ctx: TIdpContext,
  user: TIdpUser,
  opts: {
    deviceKey?: string | null;
    newDevice?: { DeviceKey: string; DeviceGroupKey: string };
    /** A hosted sign-in's granted scopes (the access token's `scope`) and its authentication time. */
    scope?: string;
    authTime?: number;
    nonce?: string;
  } = {},
) {
  const refreshToken = randomBytes(48).toString('base64url');
  const originJti = randomUUID();
  const authTime = opts.authTime ?? Math.floor(Date.now() / 1000);
  const deviceKey = opts.newDevice?.DeviceKey ?? opts.deviceKey ?? null;
  // The session row and the sign-in's system-log rows (ctx.onSignIn) commit together.
  await ctx.db.transaction(async (tx) => {
    await tx.insert(idpSessions).values({
      originJti,
      userId: user.id,
      refreshTokenHash: hashRefreshToken(refreshToken),
      deviceKey,
      scope: opts.scope ?? null,
      authTime: new Date(authTime * 1000),
      expiresAt: new Date((authTime + REFRESH_TOKEN_TTL_S) * 1000),
    });
    await ctx.onSignIn?.(tx, { sub: user.id, ip: ctx.ip, userAgent: ctx.userAgent });
  });
  // Now and then, drop sign-ins whose refresh token expired over a day ago (their access tokens too).
  if (Math.random() < 0.02) {
    await ctx.db.delete(idpSessions).where(lt(idpSessions.expiresAt, sql`now() - interval '1 day'`));
  }
  const t = await tokensFor(ctx, user, {
    originJti,
    authTime,
    deviceKey,
    scope: opts.scope,
    nonce: opts.nonce,
  });
  return {
    AuthenticationResult: {
      AccessToken: t.accessToken,
      IdToken: t.idToken,
      RefreshToken: refreshToken,
      ExpiresIn: t.expiresIn,
      TokenType: 'Bearer',
      ...(opts.newDevice ? { NewDeviceMetadata: opts.newDevice } : {}),
    },
  };
}

/**
 * New access and id tokens for a refresh token (not rotated: origin_jti, auth_time and, as Cognito
 * does, the scopes granted at authorization survive).
 */
export async function refreshSession(
  ctx: TIdpContext,
  refreshToken: string,
  loadUser: (id: string) => Promise<TIdpUser | null>,
) {
  const [row] = await ctx.db
    .select({
      originJti: idpSessions.originJti,
      userId: idpSessions.userId,
      deviceKey: idpSessions.deviceKey,
      scope: idpSessions.scope,
      authTime: idpSessions.authTime,
      revoked: sql<boolean>`${idpSessions.revokedAt} is not null`,
      expired: sql<boolean>`${idpSessions.expiresAt} <= now()`,
    })
    .from(idpSessions)
    .where(eq(idpSessions.refreshTokenHash, hashRefreshToken(refreshToken)));
  if (!row) throw E.refreshInvalid();
  if (row.revoked) throw E.refreshRevoked();
  if (row.expired) throw E.refreshExpired();
  const user = row.userId ? await loadUser(row.userId) : null;
  if (!user) throw E.userNotFound();
  if (!user.enabled) throw E.userDisabled();
  if (user.status === 'RESET_REQUIRED') throw E.resetRequired();
  const t = await tokensFor(ctx, user, {
    originJti: row.originJti,
    authTime: Math.floor(row.authTime.getTime() / 1000),
    deviceKey: row.deviceKey,
    scope: row.scope ?? undefined,
  });
  return {
    AuthenticationResult: {
      AccessToken: t.accessToken,
      IdToken: t.idToken,
      ExpiresIn: t.expiresIn,
      TokenType: 'Bearer',
    },
  };
}

/** Revokes the sign-in a refresh token belongs to; false when the token is unknown. */
export async function revokeRefreshToken(db: TExecutor, refreshToken: string): Promise<boolean> {
  const [row] = await db
    .update(idpSessions)
    .set({ revokedAt: sql`coalesce(${idpSessions.revokedAt}, now())` })
    .where(eq(idpSessions.refreshTokenHash, hashRefreshToken(refreshToken)))
    .returning({ originJti: idpSessions.originJti });
  return Boolean(row);
}

/** Revokes one sign-in by the origin_jti of its tokens (e.g. a product-side sign-out). */
export async function revokeSignIn(db: TExecutor, originJti: string): Promise<void> {
  await db
    .update(idpSessions)
    .set({ revokedAt: sql`coalesce(${idpSessions.revokedAt}, now())` })
    .where(eq(idpSessions.originJti, originJti));
}

export async function revokeUserSessions(db: TExecutor, userId: string): Promise<void> {
  await db
    .update(idpSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(idpSessions.userId, userId), isNull(idpSessions.revokedAt)));
}

/** Whether the sign-in behind an access token was revoked (unknown origin_jti: not revoked). */
export async function isRevoked(db: TExecutor, originJti: string): Promise<boolean> {
  const [row] = await db
    .select({ revoked: sql<boolean>`${idpSessions.revokedAt} is not null` })
    .from(idpSessions)
    .where(eq(idpSessions.originJti, originJti));
  return row?.revoked === true;
}
