import { z } from 'zod';
import type { TPermission } from '../../domain/permissions';
import { portalClientAccess, portalScope, staffScope } from '../auth';
import type { TContext } from './context';
import { baseProcedure, TRPCError } from './init';

export const publicProcedure = baseProcedure;

/** The caller's live staff sign-in, or UNAUTHORIZED. */
async function signedIn(ctx: TContext) {
  const identity = await ctx.staffIdentity();
  if (!identity) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  return identity;
}

// Each kind of staff procedure is one middleware that adds only what it adds (tRPC merges it into
// the context): every layer and context copy is paid on every call (bench/README.md, issue 42).

/** A live staff sign-in, with or without a firm (onboarding). */
export const identifiedProcedure = baseProcedure.use(async ({ ctx, next }) =>
  next({ ctx: { identity: await signedIn(ctx) } }),
);

/** A signed-in, active member of a firm (src/server/auth). The org comes from the session, never from input. */
export const staffProcedure = baseProcedure.use(async ({ ctx, next }) => {
  const identity = await signedIn(ctx);
  return next({ ctx: { identity, scope: staffScope(identity) } });
});

/**
 * A staff procedure a member may call while the firm's two-step sign-in rule holds their other
 * calls back: only the set-up itself (status, recovery codes).
 */
export const mfaSetupProcedure = baseProcedure.use(async ({ ctx, next }) => {
  const identity = await signedIn(ctx);
  return next({ ctx: { identity, scope: staffScope(identity, undefined, { allowMfaSetup: true }) } });
});

/** A staff procedure that also needs one permission key (checked after the member, as staffScope does). */
export function permissionProcedure(needed: TPermission) {
  return baseProcedure.use(async ({ ctx, next }) => {
    const identity = await signedIn(ctx);
    return next({ ctx: { identity, scope: staffScope(identity, needed) } });
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
  return next({ ctx: { portal } });
});

/**
 * A portal procedure about one client: the input names it, and the session must reach it.
 * `ctx.access` carries the firm and the client user acting.
 */
export const portalClientProcedure = portalProcedure
  .input(z.object({ clientId: z.uuid() }))
  .use(({ ctx, input, next }) => next({ ctx: { access: portalClientAccess(ctx.portal, input.clientId) } }));
