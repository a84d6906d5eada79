import { TRPCError } from '@trpc/server';
import { and, eq, exists, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TClientUserRef, TClientUserStatus } from '../../../domain/client-users';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientUserClients, clientUserInvites, clientUsers } from '../../db/schema';
import { visibleClient } from '../clients';

import { audit } from '../system-log';

// Taking access away and giving it back: remove from a client, disable, enable.

/** The client (visible to this member) and one of its client users, locked; NOT_FOUND otherwise. */
export async function linkedUser(tx: TExecutor, scope: TScope, ref: TClientUserRef) {
  const client = await visibleClient(tx, scope, ref.clientId, true);
  const [user] = await tx
    .select()
    .from(clientUsers)
    .where(
      and(
        eq(clientUsers.orgId, scope.orgId),
        eq(clientUsers.id, ref.clientUserId),
        exists(
          tx
            .select({ one: sql`1` })
            .from(clientUserClients)
            .where(
              and(
                eq(clientUserClients.orgId, clientUsers.orgId),
                eq(clientUserClients.clientUserId, clientUsers.id),
                eq(clientUserClients.clientId, client.id),
              ),
            ),
        ),
      ),
    )
    .for('update', { of: clientUsers });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: 'Portal user not found' });
  return { client, user };
}

/**
 * Takes a person's access to this client away: the link and any open invitation for it. Someone
 * left with no client of this firm has nothing to sign in for, so their sessions end too.
 */
export async function removeClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { client, user } = await linkedUser(tx, scope, ref);
    await tx
      .delete(clientUserClients)
      .where(
        and(
          eq(clientUserClients.orgId, scope.orgId),
          eq(clientUserClients.clientUserId, user.id),
          eq(clientUserClients.clientId, client.id),
        ),
      );
    await tx
      .update(clientUserInvites)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(clientUserInvites.orgId, scope.orgId),
          eq(clientUserInvites.clientUserId, user.id),
          eq(clientUserInvites.clientId, client.id),
          isNull(clientUserInvites.acceptedAt),
          isNull(clientUserInvites.revokedAt),
        ),
      );
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.remove',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Removed ${user.name}'s (${user.email}) portal access to ${client.name}`,
      changes: { client: { from: client.name, to: null } },
    });
    return { id: user.id };
  });
}

/**
 * Turns a person's portal access off in this firm (every client). Their next portal call no longer
 * reaches this firm's clients (sessions are re-read on every request), and answers 401 if no other
 * firm's client is left to them.
 */
export async function disableClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { user } = await linkedUser(tx, scope, ref);
    if (user.status === 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is already disabled` });
    }
    await tx
      .update(clientUsers)
      .set({ status: 'disabled' })
      .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.disable',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Disabled ${user.name}'s (${user.email}) portal access`,
      changes: { status: { from: user.status, to: 'disabled' } },
    });
    return { id: user.id, status: 'disabled' as const };
  });
}

/** Back to where they were: active if they ever got in, otherwise still invited. */
export async function enableClientUser(db: TDb, scope: TScope, ref: TClientUserRef, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { user } = await linkedUser(tx, scope, ref);
    if (user.status !== 'disabled') {
      throw new TRPCError({ code: 'CONFLICT', message: `${user.name} is not disabled` });
    }
    const [accepted] = await tx
      .select({ id: clientUserInvites.id })
      .from(clientUserInvites)
      .where(
        and(
          eq(clientUserInvites.orgId, scope.orgId),
          eq(clientUserInvites.clientUserId, user.id),
          isNotNull(clientUserInvites.acceptedAt),
        ),
      )
      .limit(1);
    const status: TClientUserStatus = accepted || user.lastSignInAt ? 'active' : 'invited';
    await tx
      .update(clientUsers)
      .set({ status })
      .where(and(eq(clientUsers.orgId, scope.orgId), eq(clientUsers.id, user.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'client_user.enable',
      recordType: 'client_user',
      recordId: user.id,
      summary: `Enabled ${user.name}'s (${user.email}) portal access`,
      changes: { status: { from: 'disabled', to: status } },
    });
    return { id: user.id, status };
  });
}
