import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission, type TPermission } from '../../../domain/permissions';
import type { TStaffAuth } from '../../idp/staff-auth';
import type { TRequestMeta } from '../../trpc/context';
import type { TScope } from '../../trpc/procedures';

/**
 * The staff check of a plain HTTP route (uploads and downloads cannot be tRPC calls), exactly as
 * `permissionProcedure` does it. Sends the refusal itself and answers null, or the caller's scope.
 */
export async function staffRouteScope(
  staffAuth: TStaffAuth,
  req: FastifyRequest,
  reply: FastifyReply,
  needed: TPermission,
): Promise<{ scope: TScope; meta: TRequestMeta } | null> {
  const identity = await staffAuth.resolve(req);
  if (!identity) {
    await reply.code(401).send({ error: 'UNAUTHORIZED', message: 'Please sign in to continue' });
    return null;
  }
  const member = identity.member;
  if (!member) {
    await reply.code(412).send({ error: 'PRECONDITION_FAILED', message: 'Create your firm to continue' });
    return null;
  }
  if (member.status !== 'active') {
    await reply
      .code(403)
      .send({ error: 'FORBIDDEN', message: 'Your access to this firm has been turned off' });
    return null;
  }
  if (!hasPermission(member, needed)) {
    await reply.code(403).send({ error: 'FORBIDDEN', message: 'You do not have permission to do this' });
    return null;
  }
  return {
    scope: {
      orgId: member.orgId,
      memberId: member.memberId,
      isOwner: member.isOwner,
      permissions: member.permissions,
      assignedClientsOnly: member.assignedClientsOnly,
    },
    meta: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
  };
}
