import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idpSessions } from '../../db/schema';
import type { TIdpContext } from '../deps';
import { hashRefreshToken } from '../sessions';
import { findUserById, type TIdpUser } from '../users';

// What the provider keeps in the browser: its own sign-in session (Cognito's hosted-UI cookie, one
// hour), and a token against cross-site posts of its forms.

const SESSION_COOKIE = 'idp_hosted';
const CSRF_COOKIE = 'idp_csrf';
const COOKIE_PATH = '/api/idp';
export const HOSTED_SESSION_S = 3600;

// The row's hash is of a prefixed value, so the cookie can never be used as a refresh token.
const sessionHash = (token: string) => hashRefreshToken(`hosted\u0000${token}`);

const secure = (req: FastifyRequest) => req.protocol === 'https';

/**
 * Starts the hosted session: a sign-in row like any other (GlobalSignOut and disabling the user
 * revoke it too), whose opaque value only this cookie holds.
 */
export async function startHostedSession(
  ctx: TIdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: TIdpUser,
  authTime: number,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await ctx.db.insert(idpSessions).values({
    originJti: randomUUID(),
    userId: user.id,
    refreshTokenHash: sessionHash(token),
    authTime: new Date(authTime * 1000),
    expiresAt: new Date(Date.now() + HOSTED_SESSION_S * 1000),
  });
  reply.setCookie(SESSION_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(req),
    maxAge: HOSTED_SESSION_S,
  });
}

/** The person this browser signed in as, while that session lives and they may sign in. */
export async function hostedSessionUser(ctx: TIdpContext, req: FastifyRequest) {
  const token = req.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const [row] = await ctx.db
    .select({ userId: idpSessions.userId, authTime: idpSessions.authTime })
    .from(idpSessions)
    .where(
      and(
        eq(idpSessions.refreshTokenHash, sessionHash(token)),
        isNull(idpSessions.revokedAt),
        gt(idpSessions.expiresAt, new Date()),
      ),
    );
  const user = row?.userId ? await findUserById(ctx.db, row.userId) : null;
  if (!row || !user?.enabled || user.status !== 'CONFIRMED') return null;
  return { user, authTime: Math.floor(row.authTime.getTime() / 1000) };
}

/** /logout: revokes the hosted session and clears its cookie. */
export async function endHostedSession(ctx: TIdpContext, req: FastifyRequest, reply: FastifyReply) {
  const token = req.cookies[SESSION_COOKIE];
  if (token && token.length <= 100) {
    await ctx.db
      .update(idpSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(idpSessions.refreshTokenHash, sessionHash(token)), isNull(idpSessions.revokedAt)));
  }
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
}

/** The browser's form token (double submit: the cookie and the hidden field must agree). */
export function csrfToken(req: FastifyRequest, reply: FastifyReply): string {
  const existing = req.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(CSRF_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(req),
  });
  return token;
}

/** A post from this provider's own page: same origin (when the browser says) and the right token. */
export function csrfOk(req: FastifyRequest, sent: string): boolean {
  const origin = req.headers.origin;
  if (origin && origin !== `${req.protocol}://${req.host}`) return false;
  const cookie = req.cookies[CSRF_COOKIE] ?? '';
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  return a.length === 43 && a.length === b.length && timingSafeEqual(a, b);
}
