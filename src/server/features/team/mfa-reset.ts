import { TRPCError } from '@trpc/server';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { resetUserMfa } from '../../idp/recovery-codes';
import { audit } from '../system-log';
import { displayName, memberForUpdate } from './service';

/**
 * An administrator resets a member's two-step sign-in (a lost phone and no recovery code left):
 * their authenticator and recovery codes go, and their next sign-in sets up again where the firm
 * requires it. Never one's own (My account → Security does that) nor, unless one is the owner,
 * the owner's.
 */
export async function resetMemberMfa(
  db: TDb,
  idpMode: string,
  scope: TScope,
  memberId: string,
  meta: TRequestMeta,
) {
  if (idpMode !== 'embedded')
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Two-step sign-in is managed in the identity provider this deployment uses',
    });
  return db.transaction(async (tx) => {
    const member = await memberForUpdate(tx, scope.orgId, memberId);
    if (member.id === scope.memberId)
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'Change your own two-step sign-in in My account → Security',
      });
    if (member.isOwner && !scope.isOwner)
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'Only the owner can reset the owner’s two-step sign-in',
      });
    if (!member.sub || !(await resetUserMfa(tx, member.sub)))
      throw new TRPCError({ code: 'BAD_REQUEST', message: `${displayName(member)} has not signed up yet` });
    await audit(tx, actorOf(scope, meta), {
      action: 'member.mfa_reset',
      recordType: 'member',
      recordId: member.id,
      summary: `Reset ${displayName(member)}’s two-step sign-in (authenticator and recovery codes removed)`,
    });
    return { id: member.id };
  });
}
