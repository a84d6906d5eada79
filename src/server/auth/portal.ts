import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TExecutor } from '../db/client';
import {
  clearPortalCookies,
  portalSessionToken,
  resolvePortalSession,
  type TPortalClientAccess,
  type TPortalSession,
} from './portal-session';

/**
 * The portal check, the same for a tRPC procedure and a plain HTTP route: the session the httpOnly
 * cookie carries, and only that (a staff Bearer token opens nothing here). A dead session (revoked,
 * expired, its person disabled) also drops both cookies, or the web route guard, which sees only the
 * companion cookie, would send the login page back to the portal.
 */
export async function portalScope(
  session: TPortalSession | null,
  req: FastifyRequest,
  res: FastifyReply,
  secureCookies: boolean,
): Promise<TPortalSession> {
  if (session) return session;
  if (portalSessionToken(req)) clearPortalCookies(res, { secure: secureCookies });
  throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to the client portal' });
}

/** Resolves the request's portal session once (a batch of calls reads it once). */
export function portalSessionOf(db: TExecutor, req: FastifyRequest): Promise<TPortalSession | null> {
  return resolvePortalSession(db, portalSessionToken(req));
}

/**
 * One client the session acts for. A client the person may not act for (another client of the
 * firm, another firm's, or no valid id at all) answers NOT_FOUND, the same as one that does not exist.
 */
export function portalClientAccess(session: TPortalSession, clientId: unknown): TPortalClientAccess {
  const access = session.clients.find((c) => c.clientId === clientId);
  if (!access) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return access;
}
