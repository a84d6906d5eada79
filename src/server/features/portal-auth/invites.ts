import { TRPCError } from '@trpc/server';
import { and, eq, isNull } from 'drizzle-orm';
import {
  portalInviteMessage,
  portalInviteState,
  type TPortalInviteState,
} from '../../../domain/client-users';
import type { TRequestMeta } from '../../auth';
import { createPortalSession } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, clientUserClients, clientUserInvites, clientUsers, orgs } from '../../db/schema';
import { hashInviteKey } from '../client-users';
import { audit } from '../system-log';

// /clientportal/auth/invite/{key}: the link from the invitation mail. Holding the key proves the
// mailbox, so accepting it signs the person in (no code needed on top).

const NOT_VALID = 'This invitation link is not valid. Ask the firm to send you a new one.';

async function inviteByKey(db: TExecutor, key: string, lock = false) {
  const query = db
    .select({
      id: clientUserInvites.id,
      orgId: clientUserInvites.orgId,
      clientId: clientUserInvites.clientId,
      clientUserId: clientUserInvites.clientUserId,
      expiresAt: clientUserInvites.expiresAt,
      acceptedAt: clientUserInvites.acceptedAt,
      revokedAt: clientUserInvites.revokedAt,
      email: clientUsers.email,
      name: clientUsers.name,
      userStatus: clientUsers.status,
      clientName: clients.name,
      firmName: orgs.name,
    })
    .from(clientUserInvites)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserInvites.orgId), eq(clientUsers.id, clientUserInvites.clientUserId)),
    )
    .innerJoin(
      clients,
      and(eq(clients.orgId, clientUserInvites.orgId), eq(clients.id, clientUserInvites.clientId)),
    )
    .innerJoin(orgs, eq(orgs.id, clientUserInvites.orgId))
    .where(eq(clientUserInvites.keyHash, hashInviteKey(key)))
    .limit(1);
  const [invite] = lock ? await query.for('update', { of: [clientUserInvites, clientUsers] }) : await query;
  if (!invite) throw new TRPCError({ code: 'NOT_FOUND', message: NOT_VALID });
  return invite;
}

export type TPortalInvitePreview = {
  state: TPortalInviteState;
  /** Why the link cannot be used, when it cannot. */
  message: string | null;
  firmName: string;
  clientName: string;
  name: string;
  email: string;
  expiresAt: Date;
};

export async function previewPortalInvite(db: TExecutor, key: string): Promise<TPortalInvitePreview> {
  const invite = await inviteByKey(db, key);
  const state = portalInviteState(invite);
  return {
    state,
    message: state === 'open' ? null : portalInviteMessage(state, invite.firmName),
    firmName: invite.firmName,
    clientName: invite.clientName,
    name: invite.name,
    email: invite.email,
    expiresAt: invite.expiresAt,
  };
}

/**
 * Accepts the invitation: the person becomes active (their other open invitations from the firm
 * count as accepted too: one person, one account), and a portal session starts.
 */
export async function acceptPortalInvite(db: TDb, key: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const invite = await inviteByKey(tx, key, true);
    const state = portalInviteState(invite);
    if (state !== 'open') {
      throw new TRPCError({ code: 'CONFLICT', message: portalInviteMessage(state, invite.firmName) });
    }
    const now = new Date();
    await tx
      .update(clientUserInvites)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(clientUserInvites.orgId, invite.orgId),
          eq(clientUserInvites.clientUserId, invite.clientUserId),
          isNull(clientUserInvites.acceptedAt),
          isNull(clientUserInvites.revokedAt),
        ),
      );
    await tx
      .update(clientUsers)
      .set({ status: 'active', lastSignInAt: now })
      .where(and(eq(clientUsers.orgId, invite.orgId), eq(clientUsers.id, invite.clientUserId)));
    // The link is made at invitation time; re-made here in case it raced a removal that lost.
    await tx
      .insert(clientUserClients)
      .values({ orgId: invite.orgId, clientUserId: invite.clientUserId, clientId: invite.clientId })
      .onConflictDoNothing();
    await audit(
      tx,
      { kind: 'client_user', orgId: invite.orgId, clientUserId: invite.clientUserId, meta },
      {
        action: 'client_user.accept',
        recordType: 'client_user',
        recordId: invite.clientUserId,
        summary: `${invite.name} (${invite.email}) accepted the portal invitation for ${invite.clientName}`,
        changes: { status: { from: invite.userStatus, to: 'active' } },
      },
    );
    const session = await createPortalSession(tx, {
      email: invite.email,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return { ...session, email: invite.email };
  });
}
