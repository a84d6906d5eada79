import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TPermission } from '../../domain/permissions';
import { SIGNED_LINK_PARAM, type TLinkPurpose } from '../../domain/signed-links';
import type { TDb } from '../db/client';
import { inputErrorOf } from '../db/errors';
import { canonicalResource, type TLinkMac, verifyLink } from '../http/signed-links';
import type { TStaffAuth, TStaffIdentity } from '../idp/staff-auth';
import { portalClientAccess, portalScope, portalSessionOf } from './portal';
import type { TPortalClientAccess, TPortalSession } from './portal-session';
import { staffScope, type TScope } from './scope';

/**
 * Who may call a plain HTTP route (uploads, downloads, zips, exports, imports, the logo): every
 * route under /api/ declares it in its config, and one hook enforces it before the body is read.
 */
export type TRouteAuth =
  | 'public'
  | 'portal'
  /** null: any active member, the handler deciding per record (as a bare staffProcedure does). */
  | { staff: TPermission | null };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: TRouteAuth;
    /**
     * A staff file route the browser may also open by a signed link of this purpose (`?link=`),
     * so the file streams to disk: see http/signed-links.ts and features/links.
     */
    link?: TLinkPurpose;
  }
  interface FastifyRequest {
    staffScope: TScope | null;
    portalSession: TPortalSession | null;
  }
}

/**
 * Routes that answer for themselves: procedures declare their auth, the IdP speaks its protocol, the
 * public API takes its keys (features/api/rest.ts).
 */
const OWN_DOOR = ['/api/trpc', '/api/idp', '/api/v1'];
const ownDoor = (url: string) => OWN_DOOR.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));

/** A refusal or a service's TRPCError as the JSON a route answers. */
export function sendHttpError(reply: FastifyReply, error: TRPCError) {
  return reply
    .code(getHTTPStatusCodeFromError(error))
    .header('cache-control', 'no-store')
    .send({ error: error.code, message: error.message });
}

/**
 * The one door for routes that are not tRPC. Registered before any route: a route under /api/ that
 * does not say who may call it stops start-up, so a new route cannot forget.
 */
export function registerRouteAuth(
  app: FastifyInstance,
  deps: { db: TDb; staffAuth: TStaffAuth; secureCookies: boolean; linkMac: TLinkMac },
) {
  app.decorateRequest('staffScope', null);
  app.decorateRequest('portalSession', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || ownDoor(route.url) || route.config?.auth) return;
    throw new Error(
      `${route.method} ${route.url} must declare config.auth (public, portal or a staff permission)`,
    );
  });

  app.addHook('onRequest', async (req, reply) => {
    const auth = req.routeOptions.config.auth;
    if (!auth || auth === 'public') return;
    if (auth === 'portal') {
      req.portalSession = await portalScope(
        await portalSessionOf(deps.db, req),
        req,
        reply,
        deps.secureCookies,
      );
    } else {
      const linked = await linkedIdentity(req, deps);
      req.staffScope = staffScope(linked ?? (await deps.staffAuth.resolve(req)), auth.staff ?? undefined);
    }
  });

  // Handlers throw TRPCErrors as services do. A database data exception is the input's fault (a
  // 400, logged with the route); a plugin's 4xx (a body too large, a bad content type, malformed
  // multipart) answers in the same JSON shape; anything else is a 500 that never shows its cause.
  app.setErrorHandler((error, req, reply) => {
    if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR')
      return sendHttpError(reply, error);
    const input = inputErrorOf(error);
    if (input) {
      req.log.warn(
        { err: error instanceof TRPCError ? (error.cause ?? error) : error, route: req.routeOptions.url },
        'input the database refused',
      );
      return sendHttpError(reply, input);
    }
    const status = (error as { statusCode?: number }).statusCode;
    // The rate limit (http/rate-limit.ts): a body the web app's tRPC client reads; Retry-After is set.
    if (!(error instanceof TRPCError) && status === 429)
      return reply.code(429).send({ error: 'TOO_MANY_REQUESTS', message: (error as Error).message });
    if (!(error instanceof TRPCError) && status && status >= 400 && status < 500)
      return sendPluginError(reply, error as Error, status);
    req.log.error({ err: error instanceof TRPCError ? (error.cause ?? error) : error }, 'request failed');
    return sendHttpError(
      reply,
      new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'Something went wrong on our side. Please try again.',
      }),
    );
  });
}

const LINK_REFUSED = 'This link has expired or is not valid: open the file again from Practice';

/**
 * The member a signed link speaks for, when the request carries one (and no bearer token) on a
 * route that takes links of its purpose: the link must be genuine, unexpired and issued for this
 * very path and query, and its sign-in still live. The member's status and rights are then checked
 * as for any call, and the handler runs its own checks on the object as usual.
 */
async function linkedIdentity(
  req: FastifyRequest,
  deps: { staffAuth: TStaffAuth; linkMac: TLinkMac },
): Promise<TStaffIdentity | null> {
  const purpose = req.routeOptions.config.link;
  const token = (req.query as Record<string, unknown> | undefined)?.[SIGNED_LINK_PARAM];
  if (token === undefined || req.headers.authorization) return null;
  const resource = canonicalResource(req.url);
  const claims =
    purpose && typeof token === 'string' && resource
      ? await verifyLink(deps.linkMac, token, { purpose, resource })
      : null;
  if (!claims) throw new TRPCError({ code: 'FORBIDDEN', message: LINK_REFUSED });
  const identity = await deps.staffAuth.resolveSignIn(claims.s, claims.j);
  if (!identity?.member || identity.member.memberId !== claims.m || identity.member.orgId !== claims.o) {
    throw new TRPCError({ code: 'FORBIDDEN', message: LINK_REFUSED });
  }
  return identity;
}

/** What a person is told for a plugin's 4xx (the plugin's own text names parser internals). */
const PLUGIN_ERRORS: Record<number, { error: string; message: string }> = {
  400: { error: 'BAD_REQUEST', message: 'The request could not be read. Please try again.' },
  406: { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'This kind of content is not accepted here' },
  413: { error: 'PAYLOAD_TOO_LARGE', message: 'What was sent is too large' },
  415: { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'This kind of content is not accepted here' },
};
const STATUS_CODES: Record<number, string> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
};

/** A Fastify or plugin 4xx as `{ error, message }`, keeping its status (406 answers 415). */
function sendPluginError(reply: FastifyReply, error: Error & { validation?: unknown }, status: number) {
  const known = PLUGIN_ERRORS[status];
  const answer = known
    ? { ...known, ...(error.validation ? { message: error.message } : {}) }
    : { error: STATUS_CODES[status] ?? 'BAD_REQUEST', message: error.message };
  return reply
    .code(status === 406 ? 415 : status)
    .header('cache-control', 'no-store')
    .send(answer);
}

/** The staff scope the hook established for a `{ staff }` route. */
export function routeStaffScope(req: FastifyRequest): TScope {
  if (!req.staffScope) throw new Error(`${req.routeOptions.url} is not a staff route`);
  return req.staffScope;
}

/** One client of the portal session the hook established for a `portal` route. */
export function routePortalAccess(req: FastifyRequest, clientId: unknown): TPortalClientAccess {
  if (!req.portalSession) throw new Error(`${req.routeOptions.url} is not a portal route`);
  return portalClientAccess(req.portalSession, clientId);
}
