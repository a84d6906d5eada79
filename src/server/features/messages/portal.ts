import { and, desc, eq, sql } from 'drizzle-orm';
import type { TPortalMessagePost, TPortalThreadCreate } from '../../../domain/messages';
import { portalActorOf, type TPortalClientAccess, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { messageThreadClientUsers, messageThreads } from '../../db/schema';
import { audit } from '../system-log';
import { portalThread, portalThreadWhere } from './access';
import { appendMessage } from './append';
import { afterMessage } from './notify';
import { addClientUsers } from './people';
import { messagePage } from './thread-messages';

// The portal's side of messages: only threads the signed-in person is on, for the client they act
// for; internal notes never leave the server.

const PORTAL_PAGE = 20;

const myRead = (access: TPortalClientAccess) =>
  and(
    eq(messageThreadClientUsers.orgId, messageThreads.orgId),
    eq(messageThreadClientUsers.threadId, messageThreads.id),
    eq(messageThreadClientUsers.clientUserId, access.clientUserId),
  );

/** Unread: public messages after the person's read mark (a note moves no number they see). */
const unreadOf = sql<number>`(select count(*)::int from messages m where m.org_id = ${messageThreads.orgId}
  and m.thread_id = ${messageThreads.id} and not m.internal and m.seq > ${messageThreadClientUsers.readSeq})`;

export async function listPortalThreads(db: TExecutor, access: TPortalClientAccess, page: number) {
  const rows = await db
    .select({
      id: messageThreads.id,
      subject: messageThreads.subject,
      status: messageThreads.status,
      lastMessageAt: sql<Date>`coalesce(${messageThreads.lastPublicAt}, ${messageThreads.createdAt})`,
      lastPreview: messageThreads.lastPublicPreview,
      unread: sql<number>`case when ${messageThreads.lastPublicSeq} > ${messageThreadClientUsers.readSeq} then ${unreadOf} else 0 end`,
    })
    .from(messageThreads)
    .innerJoin(messageThreadClientUsers, myRead(access))
    .where(portalThreadWhere(access))
    .orderBy(
      desc(sql`coalesce(${messageThreads.lastPublicAt}, ${messageThreads.createdAt})`),
      desc(messageThreads.id),
    )
    .limit(PORTAL_PAGE + 1)
    .offset((page - 1) * PORTAL_PAGE);
  return { rows: rows.slice(0, PORTAL_PAGE), hasMore: rows.length > PORTAL_PAGE, page };
}

/** The person's unread messages over their threads of this client: the portal's badge. */
export async function portalUnread(db: TExecutor, access: TPortalClientAccess) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${unreadOf}), 0)::int` })
    .from(messageThreads)
    .innerJoin(messageThreadClientUsers, myRead(access))
    .where(
      and(
        portalThreadWhere(access),
        sql`${messageThreads.lastPublicSeq} > ${messageThreadClientUsers.readSeq}`,
      ),
    );
  return { messages: row?.n ?? 0 };
}

export async function getPortalThread(db: TExecutor, access: TPortalClientAccess, threadId: string) {
  const thread = await portalThread(db, access, threadId);
  return { id: thread.id, subject: thread.subject, status: thread.status, createdAt: thread.createdAt };
}

export async function portalMessages(
  db: TExecutor,
  access: TPortalClientAccess,
  input: { threadId: string; before?: number },
) {
  const thread = await portalThread(db, access, input.threadId);
  const page = await messagePage(db, thread, { before: input.before, limit: 50 }, { withInternal: false });
  // What the client sees of a message: who wrote it and when, not the firm's member ids.
  return {
    olderBefore: page.olderBefore,
    messages: page.messages.map((m) => ({
      id: m.id,
      seq: m.seq,
      body: m.body,
      createdAt: m.createdAt,
      authorName: m.authorName,
      mine: m.authorClientUserId === access.clientUserId,
      fromClient: m.fromClient,
      attachments: m.attachments.map((a) => ({ documentId: a.documentId, name: a.name, size: a.size })),
    })),
  };
}

/** Read up to the thread's last public message; logged when the mark moves. */
export async function portalMarkRead(
  db: TDb,
  access: TPortalClientAccess,
  threadId: string,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const thread = await portalThread(tx, access, threadId);
    const moved = await tx
      .update(messageThreadClientUsers)
      .set({ readSeq: thread.lastSeq })
      .where(
        and(
          eq(messageThreadClientUsers.orgId, access.orgId),
          eq(messageThreadClientUsers.threadId, thread.id),
          eq(messageThreadClientUsers.clientUserId, access.clientUserId),
          sql`${messageThreadClientUsers.readSeq} < ${thread.lastPublicSeq}`,
        ),
      )
      .returning({ readSeq: messageThreadClientUsers.readSeq });
    if (!moved.length) return { changed: false };
    await audit(tx, portalActorOf(access, meta), {
      action: 'message.thread.read',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Read the conversation “${thread.subject}” in the client portal`,
    });
    return { changed: true };
  });
}

/** A new thread from the client: its first message reaches the firm (its team, when unassigned). */
export async function portalCreateThread(
  db: TDb,
  access: TPortalClientAccess,
  input: TPortalThreadCreate,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const [thread] = await tx
      .insert(messageThreads)
      .values({
        orgId: access.orgId,
        clientId: access.clientId,
        subject: input.subject,
        createdByClientUserId: access.clientUserId,
      })
      .returning();
    if (!thread) throw new Error('thread not created');
    await addClientUsers(tx, thread, [access.clientUserId]);
    const author = { kind: 'client_user' as const, clientUserId: access.clientUserId };
    // A new thread has no files yet: attachments come with the next message (uploads need a thread).
    const { message } = await appendMessage(tx, thread, author, {
      body: input.body,
      internal: false,
      mentions: [],
      attachmentIds: [],
      source: 'app',
    });
    await audit(tx, portalActorOf(access, meta), {
      action: 'message.thread.create',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Started the conversation “${thread.subject}” in the client portal`,
    });
    await afterMessage(tx, { ...thread, lastSeq: message.seq }, message, author, []);
    return { id: thread.id };
  });
}

export async function portalPostMessage(
  db: TDb,
  access: TPortalClientAccess,
  input: TPortalMessagePost,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const thread = await portalThread(tx, access, input.threadId, true);
    const author = { kind: 'client_user' as const, clientUserId: access.clientUserId };
    const { message, files } = await appendMessage(tx, thread, author, {
      body: input.body,
      internal: false,
      mentions: [],
      attachmentIds: input.attachmentIds,
      source: 'app',
    });
    await audit(tx, portalActorOf(access, meta), {
      action: 'message.add',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Wrote in the conversation “${thread.subject}” in the client portal${
        files.length ? `, attaching ${files.map((f) => `“${f.name}”`).join(', ')}` : ''
      }`,
    });
    await afterMessage(tx, { ...thread, lastSeq: message.seq }, message, author, []);
    return { id: message.id, seq: message.seq };
  });
}
