import { hasPermission, type TPermission } from '../../domain/permissions';
import type { TStaffSession } from './context';
import { t, TRPCError } from './init';

export type TScope = {
  orgId: string;
  memberId: string;
  isOwner: boolean;
  permissions: readonly string[];
  assignedClientsOnly: boolean;
};

export const publicProcedure = t.procedure;

/** A signed-in, active member of a firm. The org comes from the session, never from input. */
export const staffProcedure = t.procedure.use(async ({ ctx, next }) => {
  const session: TStaffSession | null = await ctx.staffSession();
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  const scope: TScope = {
    orgId: session.orgId,
    memberId: session.memberId,
    isOwner: session.isOwner,
    permissions: session.permissions,
    assignedClientsOnly: session.assignedClientsOnly,
  };
  return next({ ctx: { ...ctx, session, scope } });
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
  const portal = await resolvePortalSession(ctx);
  if (!portal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to the client portal' });
  return next({ ctx: { ...ctx, portal } });
});

export type TPortalSession = { clientUserId: string; orgId: string; clientIds: readonly string[] };

// Portal sign-in (client users, one-time codes, the session table) arrives with the portal feature;
// until a portal user can exist, no request carries a portal session.
async function resolvePortalSession(_ctx: unknown): Promise<TPortalSession | null> {
  return null;
}
