import { TRPCError } from '@trpc/server';
import { and, eq, isNull } from 'drizzle-orm';
import type { TClientUserInvite, TClientUserRef } from '../../../domain/client-users';
import type { TLocaleSettings } from '../../../domain/format';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientUserClients, clientUserInvites, clientUsers, orgs } from '../../db/schema';
import { enqueueMail } from '../../mail';
import { fieldConflict } from '../../trpc/field-errors';
import { visibleClient } from '../clients';
import { audit } from '../system-log';
import { linkedUser } from './access';
import { hashInviteKey, inviteExpiry, newInviteKey } from './keys';
import { portalAccessMessage, portalInviteMessage } from './mail';

// The staff side of the portal's people (/clients/{id}/client-users). Every call starts from a
// client this member may see (visibleClient: the firm, and "assigned clients only"); a client user
// is reached only through its link to that client, so another firm's or another client's person
// answers NOT_FOUND.

/** Two invitations of one person to one client at the same moment: the open-invite index keeps one. */
const conflictOnRace =
  (email: string) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) {
      throw fieldConflict('email', `${email} was invited a moment ago`);
    }
    throw error;
  };

type TMailDeps = { config: Pick<TConfig, 'publicUrl'> };

/** The firm's name, and how it writes dates and times (the invitation's expiry). */
async function firmOf(tx: TExecutor, orgId: string): Promise<{ firmName: string; firm: TLocaleSettings }> {
  const [org] = await tx
    .select({ name: orgs.name, country: orgs.country, timeZone: orgs.timeZone, currency: orgs.currency })
    .from(orgs)
    .where(eq(orgs.id, orgId));
  return {
    firmName: org?.name ?? 'Your firm',
    firm: {
      country: org?.country ?? null,
      timeZone: org?.timeZone ?? 'UTC',
      currency: org?.currency ?? 'USD',
    },
  };
}

// The invitation and the "you now have access" note are queued in the change's transaction: they go
// out (by the job queue, retried with backoff) exactly when the change commits. A mail that still
// fails is in the system log, and "Resend" makes a new link.

/** Creates the open invitation for (user, client), or renews it with a new key and expiry. */
async function upsertInvite(
  tx: TExecutor,
  scope: TScope,
  clientUserId: string,
  clientId: string,
  now: Date,
): Promise<{ id: string; key: string; expiresAt: Date; renewed: boolean }> {
  const key = newInviteKey();
  const expiresAt = inviteExpiry(now);
  const [open] = await tx
    .select({ id: clientUserInvites.id })
    .from(clientUserInvites)
    .where(
      and(
        eq(clientUserInvites.orgId, scope.orgId),
        eq(clientUserInvites.clientUserId, clientUserId),
        eq(clientUserInvites.clientId, clientId),
        isNull(clientUserInvites.acceptedAt),
        isNull(clientUserInvites.revokedAt),
      ),
    )
    .for('update');
  if (open) {
    await tx
      .update(clientUserInvites)
      .set({ keyHash: hashInviteKey(key), expiresAt, lastSentAt: now, invitedBy: scope.memberId })
      .where(and(eq(clientUserInvites.orgId, scope.orgId), eq(clientUserInvites.id, open.id)));
    return { id: open.id, key, expiresAt, renewed: true };
  }
  const [created] = await tx
    .insert(clientUserInvites)
    .values({
      orgId: scope.orgId,
      clientUserId,
      clientId,
      keyHash: hashInviteKey(key),
      invitedBy: scope.memberId,
      expiresAt,
      lastSentAt: now,
    })
    .returning({ id: clientUserInvites.id });
  if (!created) throw new Error('invite not created');
  return { id: created.id, key, expiresAt, renewed: false };
}

async function link(tx: TExecutor, orgId: string, clientUserId: string, clientId: string) {
  const inserted = await tx
    .insert(clientUserClients)
    .values({ orgId, clientUserId, clientId })
    .onConflictDoNothing()
    .returning({ clientId: clientUserClients.clientId });
  return inserted.length > 0;
}

/**
 * Invites a person to one client. A new email becomes an invited client user; an email the firm
 * already knows is linked to this client: an active person gets access at once (and a short note),
 * an invited one a new or renewed invitation. A disabled person must be enabled first.
 */
export async function inviteClientUser(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  input: TClientUserInvite,
  meta: TRequestMeta,
) {
  const now = new Date();
  const result = await db
    .transaction(async (tx) => {
      const client = await visibleClient(tx, scope, input.clientId, true);
      if (client.archivedAt) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${client.name} is archived: restore it before inviting anyone to its portal.`,
        });
      }
      const { firmName, firm } = await firmOf(tx, scope.orgId);
      const actor = actorOf(scope, meta);
      const phone = input.phone || null;
      // Upsert on (org, email): two invitations of one address at once end on one person.
      const created = await tx
        .insert(clientUsers)
        .values({
          orgId: scope.orgId,
          email: input.email,
          name: input.name,
          phone,
          invitedBy: scope.memberId,
        })
        .onConflictDoNothing()
        .returning({ id: clientUsers.id });
      const isNew = created.length > 0;
      const [user] = await tx
        .select()
        .from(clientUsers)
        .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.email, input.email)))
        .for('update');
      if (!user) throw new Error('client user not created');
      if (user.status === 'disabled') {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${input.email} has been disabled in the portal: enable them first, then add them to ${client.name}.`,
        });
      }
      const linked = await link(tx, scope.orgId, user.id, client.id);
      if (user.status === 'active') {
        if (!linked) {
          throw new TRPCError({
            code: 'CONFLICT',
            message: `${user.name} already has access to ${client.name}`,
          });
        }
        await audit(tx, actor, {
          action: 'client_user.link',
          recordType: 'client_user',
          recordId: user.id,
          summary: `Gave ${user.name} (${user.email}) portal access to ${client.name}`,
          changes: { client: { from: null, to: client.name } },
        });
        await enqueueMail(
          tx,
          portalAccessMessage(deps.config, {
            to: user.email,
            name: user.name,
            firmName,
            clientName: client.name,
          }),
          { orgId: scope.orgId },
        );
        return { user, outcome: 'access' as const };
      }
      // Invited, not yet in: the latest name and phone the firm typed are the best it knows.
      if (user.name !== input.name || user.phone !== phone) {
        await tx
          .update(clientUsers)
          .set({ name: input.name, phone })
          .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
      }
      const invite = await upsertInvite(tx, scope, user.id, client.id, now);
      await audit(tx, actor, {
        action: invite.renewed ? 'client_user.invite_renew' : 'client_user.invite',
        recordType: 'client_user',
        recordId: user.id,
        summary: `${invite.renewed ? 'Invited again' : 'Invited'} ${input.name} (${input.email}) to the portal for ${client.name}`,
        changes: {
          ...(isNew ? { email: { from: null, to: input.email }, name: { from: null, to: input.name } } : {}),
          client: { from: null, to: client.name },
          expiresAt: { from: null, to: invite.expiresAt.toISOString() },
        },
      });
      await enqueueMail(
        tx,
        portalInviteMessage(deps.config, {
          to: user.email,
          name: input.name,
          key: invite.key,
          expiresAt: invite.expiresAt,
          firmName,
          firm,
          clientName: client.name,
        }),
        { orgId: scope.orgId },
      );
      return { user, outcome: 'invite' as const };
    })
    .catch(conflictOnRace(input.email));
  return { id: result.user.id, email: result.user.email, outcome: result.outcome };
}

/** A new link (the old one stops working), valid for another PORTAL_INVITE_TTL_DAYS days. */
export async function resendClientUserInvite(
  db: TDb,
  deps: TMailDeps,
  scope: TScope,
  ref: TClientUserRef,
  meta: TRequestMeta,
) {
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const { client, user } = await linkedUser(tx, scope, ref);
    if (user.status === 'active') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} has already joined the portal` });
    }
    if (user.status === 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is disabled: enable them first` });
    }
    const invite = await upsertInvite(tx, scope, user.id, client.id, now);
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.invite_resend',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Sent the portal invitation for ${client.name} to ${user.email} again`,
      changes: { expiresAt: { from: null, to: invite.expiresAt.toISOString() } },
    });
    await enqueueMail(
      tx,
      portalInviteMessage(deps.config, {
        to: user.email,
        name: user.name,
        key: invite.key,
        expiresAt: invite.expiresAt,
        ...(await firmOf(tx, scope.orgId)),
        clientName: client.name,
      }),
      { orgId: scope.orgId },
    );
    return { user, invite };
  });
  return { id: result.user.id, expiresAt: result.invite.expiresAt };
}
