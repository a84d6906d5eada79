import { z } from 'zod';
import { hasPermission, type TPermission } from '../../domain/permissions';
import { clearPortalCookies, portalSessionToken } from '../portal/session';
import { TRPCError, t } from './init';

export type TScope = {
  orgId: string;
  memberId: string;
  isOwner: boolean;
  permissions: readonly string[];
  assignedClientsOnly: boolean;
};

export const publicProcedure = t.procedure;

/** A live staff sign-in, with or without a firm (onboarding). */
export const identifiedProcedure = t.procedure.use(async ({ ctx, next }) => {
  const identity = await ctx.staffIdentity();
  if (!identity) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  return next({ ctx: { ...ctx, identity } });
});

/** A signed-in, active member of a firm. The org comes from the session, never from input. */
export const staffProcedure = identifiedProcedure.use(async ({ ctx, next }) => {
  const member = ctx.identity.member;
  if (!member) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Create your firm to continue' });
  if (member.status !== 'active') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Your access to this firm has been turned off' });
  }
  const scope: TScope = {
    orgId: member.orgId,
    memberId: member.memberId,
    isOwner: member.isOwner,
    permissions: member.permissions,
    assignedClientsOnly: member.assignedClientsOnly,
  };
  return next({ ctx: { ...ctx, scope } });
});

/** A staff procedure that also needs one permission key. */
export function permissionProcedure(needed: TPermission) {
  return staffProcedure.use(({ ctx, next }) => {
    if (!hasPermission(ctx.scope, needed)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do this' });
    }
    return next();
  });
}

/**
 * Client-portal procedures: a portal session (server-side, httpOnly cookie) and the clients it may
 * act for. They never answer a staff token, and staff procedures never answer a portal cookie.
 */
export const portalProcedure = t.procedure.use(async ({ ctx, next }) => {
  const portal = await ctx.portalSession();
  if (!portal) {
    // A dead session (revoked, expired, its person disabled): drop the cookies too, or the route
    // guard, which sees only the companion cookie, would send the login page back to the portal.
    if (portalSessionToken(ctx.req)) {
      clearPortalCookies(ctx.res, { secure: ctx.config.publicUrl.startsWith('https:') });
    }
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to the client portal' });
  }
  return next({ ctx: { ...ctx, portal } });
});

/**
 * A portal procedure about one client: the input names it, and the session must reach it. A client
 * the person may not act for (another client of the firm, another firm's) answers NOT_FOUND, the
 * same as one that does not exist. `ctx.access` carries the firm and the client user acting.
 */
export const portalClientProcedure = portalProcedure
  .input(z.object({ clientId: z.uuid() }))
  .use(({ ctx, input, next }) => {
    const access = ctx.portal.clients.find((c) => c.clientId === input.clientId);
    if (!access) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
    return next({ ctx: { ...ctx, access } });
  });
