import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { JwtBaseError } from 'aws-jwt-verify/error';
import { and, asc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import { idpSessions, members, roles } from '../db/schema';
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

export function createStaffAuth(deps: { db: TDb; config: TConfig; keys: IdpKeys }) {
  const { db, config, keys } = deps;
  const issuer = idpIssuer(config);

  async function verifyAccessToken(token: string): Promise<TAccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, (header) => keyFor(header.kid), {
        issuer,
        algorithms: ['RS256'],
      });
      validateCognitoJwtFields(payload as never, { tokenUse: 'access', clientId: config.idp.clientId });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') return null;
      return payload as TAccessClaims;
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
   * The member behind a verified token: one indexed query, active members only, and none when the
   * token's sign-in (origin_jti) was revoked (RevokeToken, GlobalSignOut, DeleteUser, a disabled
   * user): revocation costs no second round trip.
   */
  async function memberOf(sub: string, originJti?: string) {
    const [row] = await db
      .select({
        memberId: members.id,
        orgId: members.orgId,
        isOwner: members.isOwner,
        permissions: roles.permissions,
        assignedClientsOnly: roles.assignedClientsOnly,
      })
      .from(members)
      .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
      .where(
        and(
          eq(members.sub, sub),
          eq(members.status, 'active'),
          notExists(
            db
              .select({ one: sql`1` })
              .from(idpSessions)
              .where(and(eq(idpSessions.originJti, originJti ?? ''), isNotNull(idpSessions.revokedAt))),
          ),
        ),
      )
      .orderBy(asc(members.createdAt))
      .limit(1);
    return row ?? null;
  }

  async function resolve(req: FastifyRequest): Promise<TStaffSession | null> {
    const token = accessTokenOf(req, config.idp.clientId);
    if (!token) return null;
    const claims = await verifyAccessToken(token);
    if (!claims) return null;
    const member = await memberOf(claims.sub, claims.origin_jti);
    if (!member) return null;
    return { sub: claims.sub, username: claims.username, ...member };
  }

  return { resolve, verifyAccessToken, memberOf, issuer };
}
