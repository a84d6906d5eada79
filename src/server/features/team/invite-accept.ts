import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { inviteState, inviteStateMessage, isInvitedAddress, type TInviteState } from '../../../domain/team';
import type { TRequestMeta } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { memberInvites, members, orgs, roles } from '../../db/schema';
import { identityProfile } from '../../idp/identity-profile';
import type { TStaffIdentity } from '../../idp/staff-auth';
import { audit } from '../system-log';
import { hashKey, inviter } from './invite-keys';
import { displayName } from './service';

// The public side of an invitation: /auth/invite/{key}, before and as the person signs in.

async function inviteByKey(db: TExecutor, key: string, lock = false) {
  const query = db
    .select({
      id: memberInvites.id,
      orgId: memberInvites.orgId,
      email: memberInvites.email,
      roleId: memberInvites.roleId,
      roleName: roles.name,
      firmName: orgs.name,
      inviterFirst: inviter.firstName,
      inviterLast: inviter.lastName,
      inviterEmail: inviter.email,
      expiresAt: memberInvites.expiresAt,
      acceptedAt: memberInvites.acceptedAt,
      revokedAt: memberInvites.revokedAt,
    })
    .from(memberInvites)
    .innerJoin(orgs, eq(orgs.id, memberInvites.orgId))
    .innerJoin(roles, and(eq(roles.orgId, memberInvites.orgId), eq(roles.id, memberInvites.roleId)))
    .leftJoin(inviter, and(eq(inviter.orgId, memberInvites.orgId), eq(inviter.id, memberInvites.invitedBy)))
    .where(eq(memberInvites.keyHash, hashKey(key)))
    .limit(1);
  const [invite] = lock ? await query.for('update', { of: memberInvites }) : await query;
  if (!invite) {
    throw new TRPCError({
      code: 'NOT_FOUND',
      message: 'This invitation link is not valid. Ask the firm to send you a new one.',
    });
  }
  return invite;
}

export type TInvitePreview = {
  state: TInviteState;
  /** Why the link cannot be used, when it cannot. */
  message: string | null;
  firmName: string;
  inviterName: string | null;
  email: string;
  roleName: string;
  expiresAt: Date;
};

/** What a link shows before anyone signs in; an unknown key answers NOT_FOUND. */
export async function previewInvite(db: TExecutor, key: string): Promise<TInvitePreview> {
  const invite = await inviteByKey(db, key);
  const state = inviteState(invite);
  return {
    state,
    message: state === 'open' ? null : inviteStateMessage(state, invite.firmName),
    firmName: invite.firmName,
    inviterName:
      invite.inviterEmail === null
        ? null
        : displayName({
            firstName: invite.inviterFirst ?? '',
            lastName: invite.inviterLast ?? '',
            email: invite.inviterEmail,
          }),
    email: invite.email,
    roleName: invite.roleName,
    expiresAt: invite.expiresAt,
  };
}

/**
 * The signed-in person joins the firm with the invited role. Their verified email must be the one
 * invited, and (for now) a person belongs to one firm: an active member of another firm is refused.
 */
export async function acceptInvite(
  db: TDb,
  config: TConfig,
  identity: TStaffIdentity,
  key: string,
  meta: TRequestMeta,
) {
  const profile = await identityProfile(db, config, identity);
  return db.transaction(async (tx) => {
    const invite = await inviteByKey(tx, key, true);
    const state = inviteState(invite);
    if (state !== 'open') {
      throw new TRPCError({ code: 'CONFLICT', message: inviteStateMessage(state, invite.firmName) });
    }
    if (!profile.email || !isInvitedAddress(invite.email, profile.email)) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: `This invitation was sent to ${invite.email}. Sign in with that address to accept it.`,
      });
    }
    if (!profile.verified) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'Verify your email address first, then accept again.',
      });
    }
    const [here] = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.orgId, invite.orgId), eq(members.email, invite.email)))
      .limit(1);
    const memberships = await tx
      .select({ orgId: members.orgId, status: members.status })
      .from(members)
      .where(eq(members.sub, identity.sub));
    const inThisFirm = memberships.find((m) => m.orgId === invite.orgId);
    if (inThisFirm?.status === 'disabled') {
      throw new TRPCError({
        code: 'CONFLICT',
        message: `Your access to ${invite.firmName} was turned off. Ask them to reactivate you.`,
      });
    }
    if (here || inThisFirm) {
      throw new TRPCError({ code: 'CONFLICT', message: `You are already a member of ${invite.firmName}` });
    }
    if (memberships.some((m) => m.status !== 'disabled')) {
      throw new TRPCError({
        code: 'CONFLICT',
        message:
          'You already belong to another firm. For now a person can belong to one firm only: ' +
          'sign in with another email address to join this one.',
      });
    }
    const [member] = await tx
      .insert(members)
      .values({
        orgId: invite.orgId,
        sub: identity.sub,
        email: invite.email,
        firstName: profile.firstName.trim().slice(0, 80),
        lastName: profile.lastName.trim().slice(0, 80),
        roleId: invite.roleId,
        isVerified: true,
        status: 'active',
      })
      .returning({ id: members.id, firstName: members.firstName, lastName: members.lastName });
    if (!member) throw new Error('member not created');
    await tx
      .update(memberInvites)
      .set({ acceptedAt: new Date(), acceptedMemberId: member.id })
      .where(and(eq(memberInvites.orgId, invite.orgId), eq(memberInvites.id, invite.id)));
    const actor = { kind: 'member', orgId: invite.orgId, memberId: member.id, meta } as const;
    const name = displayName({ ...member, email: invite.email });
    await audit(tx, actor, {
      action: 'invite.accept',
      recordType: 'invite',
      recordId: invite.id,
      summary: `${name} accepted the invitation to ${invite.email}`,
      changes: { acceptedAt: { from: null, to: new Date().toISOString() } },
    });
    await audit(tx, actor, {
      action: 'member.join',
      recordType: 'member',
      recordId: member.id,
      summary: `${name} joined the firm as ${invite.roleName}`,
      changes: {
        email: { from: null, to: invite.email },
        role: { from: null, to: invite.roleName },
        status: { from: null, to: 'active' },
      },
    });
    return { orgId: invite.orgId, memberId: member.id, firmName: invite.firmName };
  });
}
