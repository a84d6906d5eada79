import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PORTAL_LOGIN_COOKIE } from '../../domain/web-config';
import type { TExecutor } from '../db/client';
import { clients, clientUserClients, clientUsers, portalSessions } from '../db/schema';

// The portal's own sign-in state: a server-side session row whose secret travels only in an
// httpOnly cookie. Nothing about the staff identity provider is involved (DESIGN.md: two audiences,
// separate logins, cookies and profile calls).

export const PORTAL_SESSION_COOKIE = 'practice_portal_session';
export const PORTAL_SESSION_DAYS = 30;
/** lastSeenAt is written at most this often per session (a page makes several calls). */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export type TPortalClientAccess = {
  clientId: string;
  orgId: string;
  clientUserId: string;
};

export type TPortalSession = {
  sessionId: string;
  email: string;
  /** Every active client user with the session's email (one per firm). */
  users: readonly { clientUserId: string; orgId: string; name: string }[];
  /** Every client those users may act for (archived clients excluded). */
  clients: readonly TPortalClientAccess[];
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createPortalSession(
  db: TExecutor,
  input: { email: string; ip?: string | null; userAgent?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + PORTAL_SESSION_DAYS * 24 * 60 * 60 * 1000);
  await db.insert(portalSessions).values({
    id: hashToken(token),
    email: normaliseEmail(input.email),
    ip: input.ip ?? null,
    userAgent: input.userAgent ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The live session a cookie carries, with the people and clients it reaches; null if none. */
export async function resolvePortalSession(
  db: TExecutor,
  token: string | undefined,
): Promise<TPortalSession | null> {
  if (!token) return null;
  const sessionId = hashToken(token);
  const [session] = await db
    .select({ email: portalSessions.email, lastSeenAt: portalSessions.lastSeenAt })
    .from(portalSessions)
    .where(
      and(
        eq(portalSessions.id, sessionId),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, sql`now()`),
      ),
    );
  if (!session) return null;

  const rows = await db
    .select({
      clientUserId: clientUsers.id,
      orgId: clientUsers.orgId,
      name: clientUsers.name,
      clientId: clients.id,
    })
    .from(clientUsers)
    .leftJoin(
      clientUserClients,
      and(eq(clientUserClients.orgId, clientUsers.orgId), eq(clientUserClients.clientUserId, clientUsers.id)),
    )
    .leftJoin(
      clients,
      and(
        eq(clients.orgId, clientUserClients.orgId),
        eq(clients.id, clientUserClients.clientId),
        isNull(clients.archivedAt),
      ),
    )
    .where(and(eq(clientUsers.email, session.email), eq(clientUsers.status, 'active')));
  if (rows.length === 0) return null;

  const users = new Map<string, { clientUserId: string; orgId: string; name: string }>();
  const access: TPortalClientAccess[] = [];
  for (const row of rows) {
    users.set(row.clientUserId, { clientUserId: row.clientUserId, orgId: row.orgId, name: row.name });
    if (row.clientId)
      access.push({ clientId: row.clientId, orgId: row.orgId, clientUserId: row.clientUserId });
  }

  // Reaching no client is the same as signed out: the person was disabled, or their last client
  // removed, in every firm. Nothing is revoked for that, so one firm turning a person off never
  // signs them out of another firm's portal.
  if (access.length === 0) return null;

  if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(portalSessions).set({ lastSeenAt: sql`now()` }).where(eq(portalSessions.id, sessionId));
  }
  return { sessionId, email: session.email, users: [...users.values()], clients: access };
}

export async function revokePortalSession(db: TExecutor, token: string | undefined): Promise<void> {
  if (!token) return;
  await db
    .update(portalSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(portalSessions.id, hashToken(token)), isNull(portalSessions.revokedAt)));
}

/** Ends every session of an email (a client user disabled, or signed out everywhere). */
export async function revokePortalSessionsOf(db: TExecutor, email: string): Promise<void> {
  await db
    .update(portalSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(portalSessions.email, normaliseEmail(email)), isNull(portalSessions.revokedAt)));
}

/** Expired and long-revoked sessions are only history; the job queue deletes them. */
export async function purgePortalSessions(db: TExecutor): Promise<void> {
  await db
    .delete(portalSessions)
    .where(
      or(
        lt(portalSessions.expiresAt, sql`now()`),
        lt(portalSessions.revokedAt, sql`now() - interval '1 day'`),
      ),
    );
}

export function portalSessionToken(req: FastifyRequest): string | undefined {
  return req.cookies[PORTAL_SESSION_COOKIE] || undefined;
}

/**
 * Sets the httpOnly session cookie and its non-secret companion (read by the web route guard only,
 * SPEC.md §4). sameSite strict: the portal's calls are same-origin, and a cross-site POST never
 * carries the session.
 */
export function setPortalCookies(
  res: FastifyReply,
  token: string,
  expiresAt: Date,
  options: { secure: boolean },
): void {
  const base = { path: '/', sameSite: 'strict' as const, secure: options.secure, expires: expiresAt };
  res.setCookie(PORTAL_SESSION_COOKIE, token, { ...base, httpOnly: true });
  res.setCookie(PORTAL_LOGIN_COOKIE, '1', { ...base, httpOnly: false });
}

export function clearPortalCookies(res: FastifyReply, options: { secure: boolean }): void {
  const base = { path: '/', sameSite: 'strict' as const, secure: options.secure };
  res.clearCookie(PORTAL_SESSION_COOKIE, { ...base, httpOnly: true });
  res.clearCookie(PORTAL_LOGIN_COOKIE, { ...base, httpOnly: false });
}
