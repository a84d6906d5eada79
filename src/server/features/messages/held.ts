import { TRPCError } from '@trpc/server';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { MAX_MESSAGE_LENGTH, type THeldRelease } from '../../../domain/messages';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { clients, messagesHeld, messageThreads } from '../../db/schema';
import { clientVisibility, visibleClient } from '../clients';
import { audit } from '../system-log';
import { type TThreadRow, visibleThread } from './access';
import { appendMessage, type TMessageAuthor } from './append';
import { senderOf } from './inbound';
import { forwardingAddress } from './inbound-address';
import { afterMessage } from './notify';
import { addClientUsers } from './people';

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
        isNull(messagesHeld.releasedAt),
        scope.assignedClientsOnly
          ? or(sql`${messagesHeld.clientId} is null`, clientVisibility(scope, messagesHeld.clientId))
          : undefined,
      ),
    )
    .orderBy(desc(messagesHeld.createdAt))
    .limit(100);
}

/** A held mail still waiting for review, locked; NOT_FOUND for another firm's or a done one. */
async function pendingHeld(tx: TExecutor, scope: TScope, heldId: string) {
  const [row] = await tx
    .select()
    .from(messagesHeld)
    .where(
      and(
        eq(messagesHeld.orgId, scope.orgId),
        eq(messagesHeld.id, heldId),
        isNull(messagesHeld.discardedAt),
        isNull(messagesHeld.releasedAt),
      ),
    )
    .for('update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Held mail not found' });
  if (row.clientId) await visibleClient(tx, scope, row.clientId);
  return row;
}

/**
 * Reviewed and wanted: the mail is posted into a conversation the member chooses (one they may see,
 * or a new one of a client they may see). Its sender is who they are to that client (a portal user
 * of the client, a member of the firm: posted as them) or else the outside address itself, never a
 * person it claims to be. As a note unless the member shows it to the client. The mail's files were
 * not kept when it was held (a stranger's files are not stored): their names are listed.
 */
export async function releaseHeld(db: TDb, scope: TScope, input: THeldRelease, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const held = await pendingHeld(tx, scope, input.heldId);
    let thread: TThreadRow;
    let created = false;
    if (input.threadId) {
      thread = await visibleThread(tx, scope, input.threadId, true);
    } else {
      const client = await visibleClient(tx, scope, input.clientId ?? '');
      if (client.archivedAt) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This client is archived' });
      const [made] = await tx
        .insert(messageThreads)
        .values({
          orgId: scope.orgId,
          clientId: client.id,
          subject: input.subject ?? (held.subject.trim() || '(no subject)'),
          createdByMemberId: scope.memberId,
        })
        .returning();
      if (!made) throw new Error('thread not created');
      thread = made;
      created = true;
    }
    const known = await senderOf(tx, scope.orgId, thread.clientId, held.fromAddress.toLowerCase());
    const author: TMessageAuthor = known ?? { kind: 'external', email: held.fromAddress };
    // The client's own person, shown their mail in the thread (or starting a new one), is on it.
    if (known?.kind === 'client_user' && (created || !input.internal))
      await addClientUsers(tx, thread, [known.clientUserId]);
    const files = held.attachmentNames.length
      ? `\n\n(Files not kept when the mail was held: ${held.attachmentNames.join(', ')})`
      : '';
    const body = `${held.body.trim() || '(no text)'}${files}`.slice(0, MAX_MESSAGE_LENGTH);
    const { message } = await appendMessage(tx, thread, author, {
      body,
      internal: input.internal,
      mentions: [],
      attachmentIds: [],
      source: 'email',
    });
    await tx
      .update(messagesHeld)
      .set({
        releasedAt: new Date(),
        releasedBy: scope.memberId,
        releasedMessageId: message.id,
        threadId: thread.id,
      })
      .where(and(eq(messagesHeld.orgId, scope.orgId), eq(messagesHeld.id, held.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'message.held.release',
      recordType: 'messageHeld',
      recordId: held.id,
      summary: `Released a held mail from ${held.fromAddress} (“${held.subject}”) into ${
        created ? 'the new conversation' : 'the conversation'
      } “${thread.subject}”${input.internal ? ' as an internal note' : ''}`,
    });
    await afterMessage(tx, { ...thread, lastSeq: message.seq }, message, author, []);
    return { threadId: thread.id, clientId: thread.clientId, messageId: message.id };
  });
}

/** Reviewed and not wanted: it leaves the list (the row stays, with who discarded it). */
export async function discardHeld(db: TDb, scope: TScope, heldId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const row = await pendingHeld(tx, scope, heldId);
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
