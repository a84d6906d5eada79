import { TRPCError } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import { MFA_SETUP_REQUIRED_MESSAGE } from '../../domain/mfa';
import { hasPermission, type TPermission } from '../../domain/permissions';
import { ACCESS_TURNED_OFF_MESSAGE } from '../../domain/signed-out';
import type { TStaffIdentity } from '../idp/staff-auth';

/** `apiKeyId`: the call came through the public API with this key (features/api), which the log names. */
export type TRequestMeta = { ip: string; userAgent: string | null; apiKeyId?: string };

export const requestMeta = (req: FastifyRequest): TRequestMeta => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? null,
  ...(req.apiKeyId ? { apiKeyId: req.apiKeyId } : {}),
});

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the public API's door (features/api) on a call made with a key. */
    apiKeyId?: string;
  }
}

/** What a staff call may reach: the firm from the session, never from input, and the caller's rights. */
export type TScope = {
  orgId: string;
  memberId: string;
  isOwner: boolean;
  permissions: readonly string[];
  /**
   * Decided here, once: the caller sees only the clients whose team they are on (their role says
   * "assigned clients only" and they lack `clients.all`). The clients feature owns what that means
   * in SQL (`clientVisibility`); every feature asks it.
   */
  assignedClientsOnly: boolean;
};

/**
 * The staff check, the same for a tRPC procedure and a plain HTTP route: a live sign-in, a firm,
 * active membership, two-step sign-in set up when the firm's rule says so and the grace is over
 * (only the few calls of the set-up itself pass `allowMfaSetup`), and (when asked) one permission.
 * Throws the TRPCError the caller answers.
 */
export function staffScope(
  identity: TStaffIdentity | null,
  needed?: TPermission,
  opts: { allowMfaSetup?: boolean } = {},
): TScope {
  if (!identity) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  const member = identity.member;
  if (!member) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Create your firm to continue' });
  if (member.status !== 'active') {
    throw new TRPCError({ code: 'FORBIDDEN', message: ACCESS_TURNED_OFF_MESSAGE });
  }
  if (member.mfaOverdue && !opts.allowMfaSetup) {
    throw new TRPCError({ code: 'FORBIDDEN', message: MFA_SETUP_REQUIRED_MESSAGE });
  }
  const scope: TScope = {
    orgId: member.orgId,
    memberId: member.memberId,
    isOwner: member.isOwner,
    permissions: member.permissions,
    assignedClientsOnly: member.assignedClientsOnly && !hasPermission(member, 'clients.all'),
  };
  if (needed) requirePermission(scope, needed);
  return scope;
}

export function requirePermission(scope: TScope, needed: TPermission): void {
  if (!hasPermission(scope, needed)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do this' });
  }
}
