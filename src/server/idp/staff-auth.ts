import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { JwtBaseError } from 'aws-jwt-verify/error';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type CryptoKey, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import { members, roles } from '../db/schema';
import type { TStaffSession } from '../trpc/context';
import type { IdpKeys } from './keys';

export function idpIssuer(config: Pick<TConfig, 'publicUrl' | 'idp'>): string {
  return `${config.publicUrl}/api/idp/${config.idp.userPoolId}`;
}

/** Amplify's cookie storage names (IDP.md §6); names are URL-encoded by the cookie layer. */
export function amplifyCookiePrefix(clientId: string): string {
  return `CognitoIdentityServiceProvider.${clientId}.`;
}

/** The access token from `Authorization: Bearer` or, for plain page loads, Amplify's cookies. */
export function accessTokenOf(req: FastifyRequest, clientId: string): string | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const cookies = req.cookies ?? {};
  const prefix = amplifyCookiePrefix(clientId);
  const user = cookies[`${prefix}LastAuthUser`];
  if (!user) return null;
  return cookies[`${prefix}${user}.accessToken`] ?? null;
}

export type TAccessClaims = JWTPayload & { sub: string; username: string; origin_jti?: string };

export type TStaffAuth = ReturnType<typeof createStaffAuth>;

/** How long a verified token is taken at its word without checking its signature again. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 5_000;

export function createStaffAuth(deps: { db: TDb; config: TConfig; keys: IdpKeys }) {
  const { db, config, keys } = deps;
  const issuer = idpIssuer(config);

  /**
   * Tokens that passed verification, by their exact text: an RS256 check is about 0.4 ms of CPU,
   * the largest cost of a staff call after the response. The outcome depends only on the token's
   * bytes, the key and the clock, so a hit is honoured only while the key that verified it is still
   * loaded and the token has not expired (jose's rule: valid while now < exp), and for a minute at
   * most. Only this check is cached: whatever can end a session (the member's status, in memberOf)
   * is looked up on every call, so revocation takes effect on the next one. Failures are never cached.
   */
  const verified = new Map<string, { claims: TAccessClaims; kid: string; key: CryptoKey; until: number }>();

  async function verifyAccessToken(token: string): Promise<TAccessClaims | null> {
    const hit = verified.get(token);
    if (hit) {
      if (Date.now() < hit.until && (await keys.verifyKey(hit.kid)) === hit.key) return hit.claims;
      verified.delete(token);
    }
    try {
      let used: { kid: string; key: CryptoKey } | undefined;
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = await keyFor(header.kid);
          used = { kid: header.kid ?? '', key };
          return key;
        },
        { issuer, algorithms: ['RS256'] },
      );
      validateCognitoJwtFields(payload as never, { tokenUse: 'access', clientId: config.idp.clientId });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') return null;
      // Shared by every hit, so nobody may change it.
      const claims = Object.freeze(payload) as TAccessClaims;
      if (used && typeof claims.exp === 'number') {
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value ?? '');
        verified.set(token, {
          claims,
          ...used,
          until: Math.min(Date.now() + VERIFIED_TTL_MS, claims.exp * 1000),
        });
      }
      return claims;
    } catch (error) {
      // A bad, expired or foreign token is no session; anything else (the database) is a real fault.
      if (error instanceof joseErrors.JOSEError || error instanceof JwtBaseError) return null;
      throw error;
    }
  }

  async function keyFor(kid: string | undefined) {
    const key = await keys.verifyKey(kid);
    if (!key) throw new joseErrors.JWKSNoMatchingKey();
    return key;
  }

  /**
   * The member behind a verified token: one indexed query, active members only. Prepared once: it
   * runs on every staff call, and building it each time cost more CPU than running it (~0.3 ms on
   * PostgreSQL, ~0.5 ms on PGlite, bench/README.md).
   */
  const memberQuery = db
    .select({
      memberId: members.id,
      orgId: members.orgId,
      isOwner: members.isOwner,
      permissions: roles.permissions,
      assignedClientsOnly: roles.assignedClientsOnly,
    })
    .from(members)
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(and(eq(members.sub, sql.placeholder('sub')), eq(members.status, 'active')))
    .orderBy(asc(members.createdAt))
    .limit(1)
    .prepare('staff_member_of');

  async function memberOf(sub: string) {
    const [row] = await memberQuery.execute({ sub });
    return row ?? null;
  }

  async function resolve(req: FastifyRequest): Promise<TStaffSession | null> {
    const token = accessTokenOf(req, config.idp.clientId);
    if (!token) return null;
    const claims = await verifyAccessToken(token);
    if (!claims) return null;
    const member = await memberOf(claims.sub);
    if (!member) return null;
    return { sub: claims.sub, username: claims.username, ...member };
  }

  return { resolve, verifyAccessToken, memberOf, issuer };
}
