import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { TLocaleSettings } from '../../../domain/format';
import type { TPage } from '../../../domain/pagination';
import type { TInviteListQuery, TInviteMember } from '../../../domain/team';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { memberInvites, members, orgs, roles } from '../../db/schema';
import { enqueueMail } from '../../mail';
import { fieldConflict } from '../../trpc/field-errors';
import { audit } from '../system-log';
import { expiryFrom, hashKey, inviter, newKey } from './invite-keys';
import { inviteMessage } from './mail';
import { assignableRole, displayName } from './service';

export type TInviteRow = {
  id: string;
  email: string;
  role: { id: string; name: string };
  invitedBy: string | null;
  expiresAt: Date;
  lastSentAt: Date;
  expired: boolean;
};

/** Open invitations (not accepted, not revoked), expired ones included so they can be resent. */
export async function listInvites(
  db: TExecutor,
  scope: Pick<TScope, 'orgId'>,
  input: TInviteListQuery,
): Promise<TPage<TInviteRow>> {
  const filter = and(
    eq(memberInvites.orgId, scope.orgId),
    isNull(memberInvites.acceptedAt),
    isNull(memberInvites.revokedAt),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: memberInvites.id,
        email: memberInvites.email,
        roleId: roles.id,
        roleName: roles.name,
        inviterFirst: inviter.firstName,
        inviterLast: inviter.lastName,
        inviterEmail: inviter.email,
        expiresAt: memberInvites.expiresAt,
        lastSentAt: memberInvites.lastSentAt,
      })
      .from(memberInvites)
      .innerJoin(roles, and(eq(roles.orgId, memberInvites.orgId), eq(roles.id, memberInvites.roleId)))
      .leftJoin(inviter, and(eq(inviter.orgId, memberInvites.orgId), eq(inviter.id, memberInvites.invitedBy)))
      .where(filter)
      .orderBy(asc(memberInvites.email), asc(memberInvites.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(memberInvites).where(filter),
  ]);
  const now = Date.now();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: { id: r.roleId, name: r.roleName },
      invitedBy:
        r.inviterEmail === null
          ? null
          : displayName({
              firstName: r.inviterFirst ?? '',
              lastName: r.inviterLast ?? '',
              email: r.inviterEmail,
            }),
      expiresAt: r.expiresAt,
      lastSentAt: r.lastSentAt,
      expired: r.expiresAt.getTime() <= now,
    })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

type TMailDeps = { config: Pick<TConfig, 'publicUrl'> };

async function firmAndInviter(tx: TExecutor, scope: TScope) {
  const [row] = await tx
    .select({
      firmName: orgs.name,
      country: orgs.country,
      timeZone: orgs.timeZone,
      currency: orgs.currency,
      firstName: members.firstName,
      lastName: members.lastName,
      email: members.email,
    })
    .from(members)
    .innerJoin(orgs, eq(orgs.id, members.orgId))
    .where(and(eq(members.orgId, scope.orgId), eq(members.id, scope.memberId)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  const firm: TLocaleSettings = { country: row.country, timeZone: row.timeZone, currency: row.currency };
  return { firmName: row.firmName, firm, inviterName: displayName(row) };
}

type TQueuedInvite = {
  id: string;
  email: string;
  roleName: string;
  firmName: string;
  firm: TLocaleSettings;
  inviterName: string;
};

/**
 * The invitation's mail, queued in the invitation's transaction: it goes out (by the job queue,
 * retried with backoff) exactly when the invitation commits. A mail that still fails is in the
 * system log, and "Resend" makes a new link.
 */
async function queueInviteMail(
  tx: TExecutor,
  deps: TMailDeps,
  orgId: string,
  invite: TQueuedInvite,
  key: string,
  expiresAt: Date,
): Promise<TQueuedInvite> {
  await enqueueMail(tx, inviteMessage(deps.config, { to: invite.email, key, expiresAt, ...invite }), {
    orgId,
  });
  return invite;
}

/**
 * Invites an address with a role: a new invitation, or the open one for the same address renewed
 * (new key, new expiry, the role asked for now). An address that already belongs to a member is
 * refused.
 */
export async function inviteMember(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  input: TInviteMember,
  meta: TRequestMeta,
) {
  const key = newKey();
  const now = new Date();
  const expiresAt = expiryFrom(now);
  let result: TQueuedInvite;
  try {
    result = await db.transaction(async (tx) => {
      const role = await assignableRole(tx, scope.orgId, input.roleId);
      const [existing] = await tx
        .select({ status: members.status })
        .from(members)
        .where(and(eq(members.orgId, scope.orgId), eq(members.email, input.email)))
        .limit(1);
      if (existing) {
        throw fieldConflict(
          'email',
          existing.status === 'disabled'
            ? `${input.email} belongs to a deactivated member: reactivate them instead`
            : `${input.email} is already a member of the firm`,
        );
      }
      const { firmName, firm, inviterName } = await firmAndInviter(tx, scope);
      const [open] = await tx
        .select({ id: memberInvites.id, roleId: memberInvites.roleId, roleName: roles.name })
        .from(memberInvites)
        .innerJoin(roles, and(eq(roles.orgId, memberInvites.orgId), eq(roles.id, memberInvites.roleId)))
        .where(
          and(
            eq(memberInvites.orgId, scope.orgId),
            eq(memberInvites.email, input.email),
            isNull(memberInvites.acceptedAt),
            isNull(memberInvites.revokedAt),
          ),
        )
        .limit(1)
        .for('update', { of: memberInvites });
      const actor = actorOf(scope, meta);
      if (open) {
        await tx
          .update(memberInvites)
          .set({
            keyHash: hashKey(key),
            roleId: role.id,
            expiresAt,
            lastSentAt: now,
            invitedBy: scope.memberId,
          })
          .where(and(eq(memberInvites.orgId, scope.orgId), eq(memberInvites.id, open.id)));
        await audit(tx, actor, {
          action: 'invite.renew',
          recordType: 'invite',
          recordId: open.id,
          summary: `Invited ${input.email} again as ${role.name}`,
          changes: {
            ...(open.roleId === role.id ? {} : { role: { from: open.roleName, to: role.name } }),
            expiresAt: { from: null, to: expiresAt.toISOString() },
          },
        });
        return queueInviteMail(
          tx,
          deps,
          scope.orgId,
          { id: open.id, email: input.email, roleName: role.name, firmName, firm, inviterName },
          key,
          expiresAt,
        );
      }
      const [created] = await tx
        .insert(memberInvites)
        .values({
          orgId: scope.orgId,
          email: input.email,
          roleId: role.id,
          keyHash: hashKey(key),
          invitedBy: scope.memberId,
          expiresAt,
          lastSentAt: now,
        })
        .returning({ id: memberInvites.id });
      if (!created) throw new Error('invite not created');
      await audit(tx, actor, {
        action: 'invite.create',
        recordType: 'invite',
        recordId: created.id,
        summary: `Invited ${input.email} as ${role.name}`,
        changes: {
          email: { from: null, to: input.email },
          role: { from: null, to: role.name },
          expiresAt: { from: null, to: expiresAt.toISOString() },
        },
      });
      return queueInviteMail(
        tx,
        deps,
        scope.orgId,
        { id: created.id, email: input.email, roleName: role.name, firmName, firm, inviterName },
        key,
        expiresAt,
      );
    });
  } catch (error) {
    // Two invitations to one address at the same moment: the open-invite index keeps one.
    if (isUniqueViolation(error)) {
      throw fieldConflict('email', `${input.email} was invited a moment ago`);
    }
    throw error;
  }
  return { id: result.id, email: result.email, expiresAt };
}

/** The open invitation, locked; NOT_FOUND for another firm's or a missing one. */
async function openInviteForUpdate(tx: TExecutor, orgId: string, inviteId: string) {
  const [invite] = await tx
    .select({
      id: memberInvites.id,
      email: memberInvites.email,
      roleName: roles.name,
      expiresAt: memberInvites.expiresAt,
      acceptedAt: memberInvites.acceptedAt,
      revokedAt: memberInvites.revokedAt,
    })
    .from(memberInvites)
    .innerJoin(roles, and(eq(roles.orgId, memberInvites.orgId), eq(roles.id, memberInvites.roleId)))
    .where(and(eq(memberInvites.orgId, orgId), eq(memberInvites.id, inviteId)))
    .limit(1)
    .for('update', { of: memberInvites });
  if (!invite) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invitation not found' });
  if (invite.acceptedAt) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: `${invite.email} has already accepted this invitation`,
    });
  }
  if (invite.revokedAt) {
    throw new TRPCError({ code: 'CONFLICT', message: 'This invitation was revoked: send a new one' });
  }
  return invite;
}

/** A new link (the old one stops working) valid for another INVITE_TTL_DAYS days. */
export async function resendInvite(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  inviteId: string,
  meta: TRequestMeta,
) {
  const key = newKey();
  const now = new Date();
  const expiresAt = expiryFrom(now);
  const result = await db.transaction(async (tx) => {
    const invite = await openInviteForUpdate(tx, scope.orgId, inviteId);
    const { firmName, firm, inviterName } = await firmAndInviter(tx, scope);
    await tx
      .update(memberInvites)
      .set({ keyHash: hashKey(key), expiresAt, lastSentAt: now })
      .where(and(eq(memberInvites.orgId, scope.orgId), eq(memberInvites.id, invite.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'invite.resend',
      recordType: 'invite',
      recordId: invite.id,
      summary: `Sent the invitation to ${invite.email} again`,
      changes: { expiresAt: { from: invite.expiresAt.toISOString(), to: expiresAt.toISOString() } },
    });
    return queueInviteMail(
      tx,
      deps,
      scope.orgId,
      { id: invite.id, email: invite.email, roleName: invite.roleName, firmName, firm, inviterName },
      key,
      expiresAt,
    );
  });
  return { id: result.id, expiresAt };
}

export async function revokeInvite(db: TDb, scope: TScope, inviteId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const invite = await openInviteForUpdate(tx, scope.orgId, inviteId);
    const revokedAt = new Date();
    await tx
      .update(memberInvites)
      .set({ revokedAt })
      .where(and(eq(memberInvites.orgId, scope.orgId), eq(memberInvites.id, invite.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'invite.revoke',
      recordType: 'invite',
      recordId: invite.id,
      summary: `Revoked the invitation to ${invite.email}`,
      changes: { revokedAt: { from: null, to: revokedAt.toISOString() } },
    });
    return { id: invite.id };
  });
}
