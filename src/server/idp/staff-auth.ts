import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { JwtBaseError } from 'aws-jwt-verify/error';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type CryptoKey, createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { roleGrants } from '../../domain/roles';
import { LAST_ACTIVE_THROTTLE_MS } from '../../domain/team';
import { mfaPastGrace } from '../auth/mfa-rule';
import type { TConfig } from '../config';
import { callBatching } from '../db/batching';
import type { TDb } from '../db/client';
import { rowsOf } from '../db/sql';
import type { IdpKeys } from './keys';

export function idpIssuer(config: Pick<TConfig, 'idp'>): string {
  return config.idp.issuer;
}

/** Amplify's cookie storage names (IDP.md §6); names are URL-encoded by the cookie layer. */
export function amplifyCookiePrefix(clientId: string): string {
  return `CognitoIdentityServiceProvider.${clientId}.`;
}

/**
 * The access token from `Authorization: Bearer` only. The server never reads it from a cookie, so
 * no cross-site request can act for a signed-in member.
 */
export function accessTokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

export type TAccessClaims = JWTPayload & { sub: string; username: string; origin_jti?: string };

export type TStaffMember = {
  memberId: string;
  orgId: string;
  isOwner: boolean;
  status: 'invited' | 'active' | 'disabled';
  permissions: string[];
  assignedClientsOnly: boolean;
  /** The firm requires MFA of them, their grace is over and they have no authenticator yet. */
  mfaOverdue: boolean;
};

/** Who is calling: a live sign-in, and their membership of a firm if they have one. */
export type TStaffIdentity = {
  sub: string;
  username: string;
  accessToken: string;
  /** The sign-in this token belongs to; revoking it ends every token of that sign-in. */
  originJti: string | null;
  member: TStaffMember | null;
};

export type TStaffAuth = ReturnType<typeof createStaffAuth>;

/** How long a verified token is taken at its word without checking its signature again. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 5_000;

export function createStaffAuth(deps: { db: TDb; config: TConfig; keys: IdpKeys | null }) {
  const { db, config, keys } = deps;
  const issuer = idpIssuer(config);
  // A Cognito pool publishes its keys at the issuer; jose caches them and refetches on a new kid.
  const remoteKeys = keys ? null : createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));

  /**
   * Tokens that passed verification, by their exact text: an RS256 check is about 0.4 ms of CPU,
   * the largest cost of a staff call after the response (bench/README.md). The verdict depends
   * only on the token's bytes, the key and the clock, so a hit counts only while the token has not
   * expired, the key that verified it is still loaded, and for a minute at most. Whatever can end
   * a session (revocation, the member's status) is looked up on every call after this.
   */
  const verified = new Map<
    string,
    { claims: TAccessClaims; kid: string; key: CryptoKey | null; until: number }
  >();

  async function cachedClaims(token: string): Promise<TAccessClaims | null> {
    const hit = verified.get(token);
    if (!hit) return null;
    const keyStillLoaded = hit.key === null || (await keys?.verifyKey(hit.kid)) === hit.key;
    if (Date.now() < hit.until && keyStillLoaded) return hit.claims;
    verified.delete(token);
    return null;
  }

  async function verifyAccessToken(token: string): Promise<TAccessClaims | null> {
    const cached = await cachedClaims(token);
    if (cached) return cached;
    try {
      let used: { kid: string; key: CryptoKey | null } = { kid: '', key: null };
      const options = { issuer, algorithms: ['RS256'] };
      const { payload } = remoteKeys
        ? await jwtVerify(token, remoteKeys, options)
        : await jwtVerify(
            token,
            async (header: { kid?: string }) => {
              const key = await keyFor(header.kid);
              used = { kid: header.kid ?? '', key };
              return key;
            },
            options,
          );
      validateCognitoJwtFields(payload as never, { tokenUse: 'access', clientId: config.idp.clientId });
      if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') return null;
      // Shared by every later hit, so nobody may change it.
      const claims = Object.freeze(payload) as TAccessClaims;
      if (typeof claims.exp === 'number') {
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
    const key = await keys?.verifyKey(kid);
    if (!key) throw new joseErrors.JWKSNoMatchingKey();
    return key;
  }

  type TLookup = {
    revoked: boolean;
    member: TStaffMember | null;
    lastActiveAt: Date | string | null;
  };
  type TLookupRow = {
    i: number | string;
    revoked: boolean;
    member_id: string | null;
    org_id: string | null;
    is_owner: boolean | null;
    status: TStaffMember['status'] | null;
    role_name: string | null;
    permissions: string[] | null;
    assigned_clients_only: boolean | null;
    last_active_at: Date | string | null;
    mfa_overdue: boolean | null;
  };
  // Only the embedded provider knows whether the person has an authenticator.
  const hasTotp =
    config.idp.mode === 'embedded'
      ? sql`coalesce((select u.totp_enabled or u.email_mfa_enabled from idp_users u where u.id = cast(k.sub as uuid)), false)`
      : sql`true`;

  /**
   * Whether each sign-in (origin_jti) was revoked (RevokeToken, GlobalSignOut, DeleteUser, a
   * disabled user) and the person's membership, active first: for every caller of one event-loop
   * turn in one statement. Nothing is cached: each call's answer is read after the call arrived,
   * as when each call had a statement of its own; under load several calls share the round trip
   * (bench/README.md, issue 42).
   */
  async function lookupMany(keys: { sub: string; originJti: string }[]): Promise<TLookup[]> {
    // Both drivers answer { rows }; the generic database type cannot say so.
    const result = await db.execute(sql`
      select k.i,
             exists(
               select 1 from idp_sessions s where s.origin_jti = k.jti and s.revoked_at is not null
             ) as revoked,
             m.id as member_id, m.org_id, m.is_owner, m.status, r.name as role_name, r.permissions,
             r.assigned_clients_only,
             m.last_active_at,
             m.mfa_overdue
      from json_to_recordset(${JSON.stringify(keys.map((k, i) => ({ i: i + 1, sub: k.sub, jti: k.originJti })))}::json)
             as k(i int, sub text, jti text)
      left join lateral (
        select m.id, m.org_id, m.is_owner, m.status, m.role_id, m.last_active_at,
               (${mfaPastGrace} and not ${hasTotp}) as mfa_overdue
        from members m join orgs o on o.id = m.org_id
        where m.sub = k.sub
        order by (m.status = 'active') desc, m.created_at asc
        limit 1
      ) m on true
      left join roles r on r.org_id = m.org_id and r.id = m.role_id`);
    const rows = new Map(rowsOf<TLookupRow>(result).map((row) => [Number(row.i), row]));
    return keys.map((_, index) => {
      const row = rows.get(index + 1);
      if (!row) return { revoked: false, member: null, lastActiveAt: null };
      const member: TStaffMember | null =
        row.member_id && row.org_id && row.status
          ? {
              memberId: row.member_id,
              orgId: row.org_id,
              isOwner: row.is_owner === true,
              status: row.status,
              permissions: roleGrants({ name: row.role_name ?? '', permissions: row.permissions ?? [] }),
              assignedClientsOnly: row.assigned_clients_only === true,
              mfaOverdue: row.mfa_overdue === true,
            }
          : null;
      return { revoked: row.revoked === true, member, lastActiveAt: row.last_active_at };
    });
  }

  type TWaiter = { resolve: (answer: TLookup) => void; reject: (error: unknown) => void };
  /** The calls waiting for the next statement, by sub and sign-in (the same pair is asked once). */
  let waiting: Map<string, { sub: string; originJti: string; waiters: TWaiter[] }> | null = null;
  function flushLookups() {
    const batch = waiting;
    waiting = null;
    if (!batch) return;
    const entries = [...batch.values()];
    lookupMany(entries).then(
      (answers) => {
        entries.forEach((entry, index) => {
          const answer = answers[index] as TLookup;
          // Each caller gets its own copy: a scope built from it must not reach another call's.
          for (const waiter of entry.waiters)
            waiter.resolve({
              ...answer,
              member: answer.member
                ? { ...answer.member, permissions: [...answer.member.permissions] }
                : null,
            });
        });
      },
      (error) => {
        for (const entry of entries) for (const waiter of entry.waiters) waiter.reject(error);
      },
    );
  }

  function lookup(sub: string, originJti: string): Promise<TLookup> {
    if (!callBatching.on) return lookupMany([{ sub, originJti }]).then(([answer]) => answer as TLookup);
    if (!waiting) {
      waiting = new Map();
      setImmediate(flushLookups);
    }
    const batch = waiting;
    const key = `${sub}\u0000${originJti}`;
    return new Promise<TLookup>((resolve, reject) => {
      const entry = batch.get(key);
      if (entry) entry.waiters.push({ resolve, reject });
      else batch.set(key, { sub, originJti, waiters: [{ resolve, reject }] });
    });
  }

  /**
   * "Last active" for the team list, written at most once per LAST_ACTIVE_THROTTLE_MS per member:
   * the value comes with the lookup above, so most calls add no query, and the write is not awaited.
   * `inFlight` keeps a burst of calls from firing the same write many times.
   */
  const inFlight = new Set<string>();
  function touchLastActive(memberId: string, lastActiveAt: Date | string | null) {
    const last = lastActiveAt === null ? 0 : new Date(lastActiveAt).getTime();
    if (Date.now() - last < LAST_ACTIVE_THROTTLE_MS || inFlight.has(memberId)) return;
    inFlight.add(memberId);
    db.execute(
      sql`update members set last_active_at = now() where id = ${memberId}
          and (last_active_at is null or last_active_at < now() - make_interval(secs => ${LAST_ACTIVE_THROTTLE_MS / 1000}))`,
    )
      .catch(() => {
        // Best effort: a missed "last active" is harmless, and the next call tries again.
      })
      .finally(() => inFlight.delete(memberId));
  }

  /** null when there is no live sign-in; otherwise the identity, with or without a firm. */
  async function resolve(req: FastifyRequest): Promise<TStaffIdentity | null> {
    const token = accessTokenOf(req);
    if (!token) return null;
    const claims = await verifyAccessToken(token);
    if (!claims) return null;
    // A real Cognito pool's tokens are revoked there; only the embedded provider's sessions are here.
    const { revoked, member, lastActiveAt } = await lookup(claims.sub, claims.origin_jti ?? '');
    if (revoked) return null;
    if (member?.status === 'active') touchLastActive(member.memberId, lastActiveAt);
    return {
      sub: claims.sub,
      username: claims.username,
      accessToken: token,
      originJti: claims.origin_jti ?? null,
      member,
    };
  }

  /**
   * The identity of a sign-in named by a signed link (its token verified elsewhere): null once that
   * sign-in is revoked, so signing out everywhere ends the person's links too.
   */
  async function resolveSignIn(sub: string, originJti: string): Promise<TStaffIdentity | null> {
    const { revoked, member } = await lookup(sub, originJti);
    if (revoked) return null;
    return { sub, username: sub, accessToken: '', originJti: originJti || null, member };
  }

  return { resolve, resolveSignIn, verifyAccessToken, issuer };
}
