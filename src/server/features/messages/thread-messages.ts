import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { TMessagePage, TMessagePost } from '../../../domain/messages';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientUsers, members, messageAttachments, messages, messageThreadMembers } from '../../db/schema';
import { memberName } from '../../db/sql';
import { audit } from '../system-log';
import { type TThreadRow, visibleThread } from './access';
import { appendMessage, mentionedMembers } from './append';
import { afterMessage } from './notify';

/**
 * A page of a thread's messages, newest first from the database (the index on (org, thread, seq)
 * reads exactly the page), handed back oldest first for the screen. `internal` false leaves the
 * firm's notes out (the portal's view).
 */
export async function messagePage(
  db: TExecutor,
  thread: Pick<TThreadRow, 'orgId' | 'id'>,
  input: { before?: number; limit: number },
  options: { withInternal: boolean },
) {
  const rows = await db
    .select({
      id: messages.id,
      seq: messages.seq,
      body: messages.body,
      internal: messages.internal,
      mentions: messages.mentions,
      source: messages.source,
      createdAt: messages.createdAt,
      authorMemberId: messages.authorMemberId,
      authorClientUserId: messages.authorClientUserId,
      authorName: sql<string>`coalesce(${memberName}, ${clientUsers.name}, ${messages.authorEmail}, 'Someone no longer here')`,
      // Each message's files in the same statement (the index on (org, message)), not a query more.
      attachments: sql<TFile[]>`(select coalesce(json_agg(json_build_object('documentId', a.document_id,
          'name', a.name, 'size', a.size) order by a.created_at), '[]'::json)
        from ${messageAttachments} a where a.org_id = ${messages.orgId} and a.message_id = ${messages.id})`,
    })
    .from(messages)
    .leftJoin(members, and(eq(members.orgId, messages.orgId), eq(members.id, messages.authorMemberId)))
    .leftJoin(
      clientUsers,
      and(eq(clientUsers.orgId, messages.orgId), eq(clientUsers.id, messages.authorClientUserId)),
    )
    .where(
      and(
        eq(messages.orgId, thread.orgId),
        eq(messages.threadId, thread.id),
        input.before ? lt(messages.seq, input.before) : undefined,
        options.withInternal ? undefined : eq(messages.internal, false),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(input.limit + 1);
  const more = rows.length > input.limit;
  const page = rows.slice(0, input.limit).reverse();
  return {
    messages: page.map((m) => ({
      ...m,
      fromClient: m.authorClientUserId !== null,
      attachments: (typeof m.attachments === 'string'
        ? (JSON.parse(m.attachments) as TFile[])
        : m.attachments
      ).map((f) => ({ messageId: m.id, documentId: f.documentId, name: f.name, size: Number(f.size) })),
    })),
    olderBefore: more ? (page[0]?.seq ?? null) : null,
  };
}
type TFile = { documentId: string; name: string; size: number };
export type TMessageRow = Awaited<ReturnType<typeof messagePage>>['messages'][number];

/** The thread checked and its page read side by side (one round trip's wait); the page is thrown away unless the thread is the caller's. */
export async function listMessages(db: TExecutor, scope: TScope, input: TMessagePage) {
  const [, page] = await Promise.all([
    visibleThread(db, scope, input.threadId),
    messagePage(db, { orgId: scope.orgId, id: input.threadId }, input, { withInternal: true }),
  ]);
  return page;
}

/**
 * The member has read the thread up to its last message. Logged when the mark moves (who read what
 * is in the system log), nothing when it was already there.
 */
export async function markRead(db: TDb, scope: TScope, threadId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const thread = await visibleThread(tx, scope, threadId);
    const [before] = await tx
      .select({ readSeq: messageThreadMembers.readSeq })
      .from(messageThreadMembers)
      .where(
        and(
          eq(messageThreadMembers.orgId, scope.orgId),
          eq(messageThreadMembers.threadId, thread.id),
          eq(messageThreadMembers.memberId, scope.memberId),
        ),
      );
    const from = before?.readSeq ?? 0;
    if (from >= thread.lastSeq) return { readSeq: from, changed: false };
    await tx
      .insert(messageThreadMembers)
      .values({ orgId: scope.orgId, threadId: thread.id, memberId: scope.memberId, readSeq: thread.lastSeq })
      .onConflictDoUpdate({
        target: [messageThreadMembers.orgId, messageThreadMembers.threadId, messageThreadMembers.memberId],
        set: { readSeq: sql`greatest(${messageThreadMembers.readSeq}, ${thread.lastSeq})` },
      });
    await audit(tx, actorOf(scope, meta), {
      action: 'message.thread.read',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Read ${thread.lastSeq - from === 1 ? 'a message' : `${thread.lastSeq - from} messages`} of the conversation “${thread.subject}”`,
    });
    return { readSeq: thread.lastSeq, changed: true };
  });
}

/** A member's reply or internal note; @mentions count only for members still named in the text. */
export async function postMessage(db: TDb, scope: TScope, input: TMessagePost, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const thread = await visibleThread(tx, scope, input.threadId, true);
    const mentioned = await mentionedMembers(tx, scope.orgId, input.mentions, input.body);
    const author = { kind: 'member' as const, memberId: scope.memberId };
    const { message, files } = await appendMessage(tx, thread, author, {
      body: input.body,
      internal: input.internal,
      mentions: mentioned.map((m) => m.id),
      attachmentIds: input.attachmentIds,
      source: 'app',
    });
    await audit(tx, actorOf(scope, meta), {
      action: input.internal ? 'message.note.add' : 'message.add',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `${input.internal ? 'Added an internal note to' : 'Wrote in'} the conversation “${thread.subject}”${
        mentioned.length ? ` mentioning ${mentioned.map((m) => m.name).join(', ')}` : ''
      }${files.length ? `, attaching ${files.map((f) => `“${f.name}”`).join(', ')}` : ''}`,
    });
    await afterMessage(
      tx,
      { ...thread, lastSeq: message.seq },
      message,
      author,
      mentioned.map((m) => m.id),
    );
    return { id: message.id, seq: message.seq, mentions: mentioned.map((m) => m.id) };
  });
}
