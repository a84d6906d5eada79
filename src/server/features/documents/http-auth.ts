import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission, type TPermission } from '../../../domain/permissions';
import type { TStaffAuth } from '../../idp/staff-auth';
import type { TRequestMeta } from '../../trpc/context';
import type { TScope } from '../../trpc/procedures';

const STATUS: Partial<Record<TRPCError['code'], number>> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
};

/**
 * The file routes stream, so they are plain HTTP routes rather than procedures; they authenticate
 * exactly as a staff procedure does (Bearer token, active member, the permission) and take the firm
 * from the session. Answers the error itself and returns null when the caller may not go on.
 */
export async function staffScopeFor(
  req: FastifyRequest,
  reply: FastifyReply,
  staffAuth: TStaffAuth,
  needed: TPermission,
): Promise<TScope | null> {
  const identity = await staffAuth.resolve(req);
  const fail = (code: TRPCError['code'], message: string) => {
    sendError(reply, new TRPCError({ code, message }));
    return null;
  };
  if (!identity) return fail('UNAUTHORIZED', 'Please sign in to continue');
  const member = identity.member;
  if (!member) return fail('PRECONDITION_FAILED', 'Create your firm to continue');
  if (member.status !== 'active') return fail('FORBIDDEN', 'Your access to this firm has been turned off');
  if (!hasPermission(member, needed)) return fail('FORBIDDEN', 'You do not have permission to do this');
  return {
    orgId: member.orgId,
    memberId: member.memberId,
    isOwner: member.isOwner,
    permissions: member.permissions,
    assignedClientsOnly: member.assignedClientsOnly,
  };
}

/** A service's TRPCError as the JSON a route answers; anything else is rethrown (a 500). */
export function sendError(reply: FastifyReply, error: unknown) {
  if (!(error instanceof TRPCError) || !STATUS[error.code]) throw error;
  return reply
    .code(STATUS[error.code] ?? 500)
    .header('cache-control', 'no-store')
    .send({ error: error.code, message: error.message });
}

export const requestMeta = (req: FastifyRequest): TRequestMeta => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? null,
});

/**
 * Content-Disposition for a name a person chose: an ASCII fallback plus the exact name as RFC 5987
 * UTF-8, so no quote, semicolon, slash or line break in a name can reach the header's syntax.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string) {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/;%]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
