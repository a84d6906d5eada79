import { TRPCError } from '@trpc/server';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { clients, messagesHeld } from '../../db/schema';
import { clientVisibility, visibleClient } from '../clients';
import { audit } from '../system-log';
import { forwardingAddress } from './inbound-address';

/** Mail held for review, newest first, of the clients the member may see. */
export async function listHeld(db: TExecutor, scope: TScope) {
  return db
    .select({
      id: messagesHeld.id,
      threadId: messagesHeld.threadId,
      clientId: messagesHeld.clientId,
      clientName: clients.name,
      fromAddress: messagesHeld.fromAddress,
      subject: messagesHeld.subject,
      body: messagesHeld.body,
      reason: messagesHeld.reason,
      attachmentNames: messagesHeld.attachmentNames,
      createdAt: messagesHeld.createdAt,
    })
    .from(messagesHeld)
    .leftJoin(clients, and(eq(clients.orgId, messagesHeld.orgId), eq(clients.id, messagesHeld.clientId)))
    .where(
      and(
        eq(messagesHeld.orgId, scope.orgId),
        isNull(messagesHeld.discardedAt),
        scope.assignedClientsOnly
          ? or(sql`${messagesHeld.clientId} is null`, clientVisibility(scope, messagesHeld.clientId))
          : undefined,
      ),
    )
    .orderBy(desc(messagesHeld.createdAt))
    .limit(100);
}

/** Reviewed and not wanted: it leaves the list (the row stays, with who discarded it). */
export async function discardHeld(db: TDb, scope: TScope, heldId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(messagesHeld)
      .where(
        and(
          eq(messagesHeld.orgId, scope.orgId),
          eq(messagesHeld.id, heldId),
          isNull(messagesHeld.discardedAt),
        ),
      );
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Held mail not found' });
    if (row.clientId) await visibleClient(tx, scope, row.clientId);
    await tx
      .update(messagesHeld)
      .set({ discardedAt: new Date(), discardedBy: scope.memberId })
      .where(and(eq(messagesHeld.orgId, scope.orgId), eq(messagesHeld.id, row.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'message.held.discard',
      recordType: 'messageHeld',
      recordId: row.id,
      summary: `Discarded a held mail from ${row.fromAddress}: “${row.subject}”`,
    });
    return { id: row.id };
  });
}

/** The client's forwarding address, when inbound mail is on (null otherwise). */
export async function clientForwardingAddress(
  db: TExecutor,
  config: Pick<TConfig, 'vault' | 'inbound'>,
  scope: TScope,
  clientId: string,
) {
  await visibleClient(db, scope, clientId);
  return { address: await forwardingAddress(config, db, clientId) };
}
