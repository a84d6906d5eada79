import { TRPCError } from '@trpc/server';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { previewOf } from '../../../domain/messages';
import type { TExecutor } from '../../db/client';
import {
  documents,
  members,
  messageAttachments,
  messages,
  messageThreadClientUsers,
  messageThreadMembers,
  messageThreads,
} from '../../db/schema';
import { memberName } from '../../db/sql';
import type { TThreadRow } from './access';

export type TAuthor = { kind: 'member'; memberId: string } | { kind: 'client_user'; clientUserId: string };
/** Who a message is by: a person of the firm or client, or an outside address (a released held mail). */
export type TMessageAuthor = TAuthor | { kind: 'external'; email: string };

export type TAppend = {
  body: string;
  internal: boolean;
  mentions: string[];
  attachmentIds: string[];
  source: 'app' | 'email';
};

/** Active members of the firm among `ids`, whose @name is still in the text (as task comments). */
export async function mentionedMembers(tx: TExecutor, orgId: string, ids: string[], body: string) {
  if (!ids.length) return [];
  const found = await tx
    .select({ id: members.id, name: memberName })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, ids), eq(members.status, 'active')));
  return found.filter((m) => body.includes(`@${m.name}`));
}

/**
 * One message added to a locked thread, whoever writes it (a member, a client in the portal, a mail
 * that came back): its number, the thread's last-message columns, its files, the author's read mark.
 * A message from the client reopens a closed thread. The caller writes the log row and notifies.
 */
export async function appendMessage(
  tx: TExecutor,
  thread: TThreadRow,
  author: TMessageAuthor,
  input: TAppend,
) {
  const seq = thread.lastSeq + 1;
  const now = new Date();
  const [message] = await tx
    .insert(messages)
    .values({
      orgId: thread.orgId,
      threadId: thread.id,
      seq,
      authorMemberId: author.kind === 'member' ? author.memberId : null,
      authorClientUserId: author.kind === 'client_user' ? author.clientUserId : null,
      authorEmail: author.kind === 'external' ? author.email : null,
      body: input.body,
      internal: input.internal,
      mentions: input.mentions,
      source: input.source,
      createdAt: now,
    })
    .returning();
  if (!message) throw new Error('message not created');
  const preview = previewOf(input.body);
  await tx
    .update(messageThreads)
    .set({
      lastSeq: seq,
      lastMessageAt: now,
      lastPreview: input.internal ? `Note: ${preview}` : preview,
      ...(input.internal ? {} : { lastPublicSeq: seq, lastPublicAt: now, lastPublicPreview: preview }),
      ...(author.kind === 'client_user' && thread.status === 'closed' ? { status: 'open' as const } : {}),
      updatedAt: now,
    })
    .where(and(eq(messageThreads.orgId, thread.orgId), eq(messageThreads.id, thread.id)));

  const files =
    input.attachmentIds.length && author.kind !== 'external'
      ? await claimAttachments(tx, thread, author, message.id, input)
      : [];

  if (author.kind === 'member') {
    await tx
      .insert(messageThreadMembers)
      .values({
        orgId: thread.orgId,
        threadId: thread.id,
        memberId: author.memberId,
        participant: true,
        readSeq: seq,
      })
      .onConflictDoUpdate({
        target: [messageThreadMembers.orgId, messageThreadMembers.threadId, messageThreadMembers.memberId],
        set: { participant: true, readSeq: seq },
      });
  } else if (author.kind === 'client_user') {
    await tx
      .update(messageThreadClientUsers)
      .set({ readSeq: seq })
      .where(
        and(
          eq(messageThreadClientUsers.orgId, thread.orgId),
          eq(messageThreadClientUsers.threadId, thread.id),
          eq(messageThreadClientUsers.clientUserId, author.clientUserId),
        ),
      );
  }
  return { message, files };
}

/**
 * The author's pending uploads to this thread become the message's files. A file sent to the client
 * is shared with the portal (its Messages folder is shared); a note's file stays internal.
 */
async function claimAttachments(
  tx: TExecutor,
  thread: TThreadRow,
  author: TAuthor,
  messageId: string,
  input: TAppend,
) {
  const claimed = await tx
    .update(messageAttachments)
    .set({ messageId })
    .where(
      and(
        eq(messageAttachments.orgId, thread.orgId),
        eq(messageAttachments.threadId, thread.id),
        inArray(messageAttachments.documentId, input.attachmentIds),
        isNull(messageAttachments.messageId),
        author.kind === 'member'
          ? eq(messageAttachments.uploadedByMemberId, author.memberId)
          : eq(messageAttachments.uploadedByClientUserId, author.clientUserId),
        sql`exists (select 1 from ${documents} d where d.org_id = ${thread.orgId}
          and d.id = ${messageAttachments.documentId} and d.deleted_at is null)`,
      ),
    )
    .returning({ documentId: messageAttachments.documentId, name: messageAttachments.name });
  if (claimed.length !== input.attachmentIds.length) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'A file is no longer waiting to be sent: upload it again',
    });
  }
  if (!input.internal) {
    await tx
      .update(documents)
      .set({ visibleToPortal: true })
      .where(
        and(
          eq(documents.orgId, thread.orgId),
          inArray(
            documents.id,
            claimed.map((c) => c.documentId),
          ),
        ),
      );
  }
  return claimed;
}
