import { z } from 'zod';
import type { TPermission } from '../../domain/permissions';
import { portalClientAccess, portalScope, requirePermission, staffScope } from '../auth';
import { baseProcedure, TRPCError } from './init';

export const publicProcedure = baseProcedure;

/** A live staff sign-in, with or without a firm (onboarding). */
export const identifiedProcedure = baseProcedure.use(async ({ ctx, next }) => {
  const identity = await ctx.staffIdentity();
  if (!identity) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  return next({ ctx: { ...ctx, identity } });
});

/** A signed-in, active member of a firm (src/server/auth). The org comes from the session, never from input. */
export const staffProcedure = identifiedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, scope: staffScope(ctx.identity) } }),
);

/**
 * A staff procedure a member may call while the firm's two-step sign-in rule holds their other
 * calls back: only the set-up itself (status, recovery codes).
 */
export const mfaSetupProcedure = identifiedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, scope: staffScope(ctx.identity, undefined, { allowMfaSetup: true }) } }),
);

/** A staff procedure that also needs one permission key. */
export function permissionProcedure(needed: TPermission) {
  return staffProcedure.use(({ ctx, next }) => {
    requirePermission(ctx.scope, needed);
    return next();
  });
}

/**
 * Client-portal procedures: a portal session (server-side, httpOnly cookie) and the clients it may
 * act for. They never answer a staff token, and staff procedures never answer a portal cookie.
 */
export const portalProcedure = baseProcedure.use(async ({ ctx, next }) => {
  const portal = await portalScope(
    await ctx.portalSession(),
    ctx.req,
    ctx.res,
    ctx.config.publicUrl.startsWith('https:'),
  );
  return next({ ctx: { ...ctx, portal } });
});

/**
 * A portal procedure about one client: the input names it, and the session must reach it.
 * `ctx.access` carries the firm and the client user acting.
 */
export const portalClientProcedure = portalProcedure
  .input(z.object({ clientId: z.uuid() }))
  .use(({ ctx, input, next }) =>
    next({ ctx: { ...ctx, access: portalClientAccess(ctx.portal, input.clientId) } }),
  );
