import { and, eq, ne, or, sql } from 'drizzle-orm';
import { hasPermission, type TPermission } from '../../../domain/permissions';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members, memberWork, roles } from '../../db/schema';

// Who decides leave: the member's manager (member_work.manager_id), or anyone whose role has
// `leaves.approve`; never the member themselves. A second level, when the firm asks for one, is a
// `leaves.approve` holder other than the first approver.

export const canApproveAny = (scope: TScope) => hasPermission(scope, 'leaves.approve');

export function mayDecide(
  scope: TScope,
  request: {
    memberId: string;
    managerId: string | null;
    firstApproverId: string | null;
    needsSecondLevel: boolean;
  },
): boolean {
  if (request.memberId === scope.memberId) return false;
  if (request.needsSecondLevel && request.firstApproverId) {
    return canApproveAny(scope) && request.firstApproverId !== scope.memberId;
  }
  return canApproveAny(scope) || request.managerId === scope.memberId;
}

/**
 * Who sees a request's details (its attachment): the member, their manager and `leaves.approve`
 * holders, whether or not it is still theirs to decide (a first approver keeps seeing it).
 */
export function mayView(scope: TScope, request: { memberId: string; managerId: string | null }): boolean {
  return request.memberId === scope.memberId || canApproveAny(scope) || request.managerId === scope.memberId;
}

/** Active members whose role grants a permission (the owner always does). */
export async function membersWith(db: TExecutor, orgId: string, permission: TPermission) {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(
      and(
        eq(members.orgId, orgId),
        eq(members.status, 'active'),
        or(eq(members.isOwner, true), sql`${roles.permissions} @> array[${permission}]::text[]`),
      ),
    );
  return rows.map((r) => r.id);
}

/** Who is told of a new request: the member's manager, else every approver but the member. */
export async function approversFor(db: TExecutor, orgId: string, memberId: string) {
  const [own] = await db
    .select({ managerId: memberWork.managerId })
    .from(memberWork)
    .innerJoin(members, and(eq(members.orgId, memberWork.orgId), eq(members.id, memberWork.managerId)))
    .where(
      and(eq(memberWork.orgId, orgId), eq(memberWork.memberId, memberId), ne(members.status, 'disabled')),
    );
  if (own?.managerId) return [own.managerId];
  return (await membersWith(db, orgId, 'leaves.approve')).filter((id) => id !== memberId);
}
