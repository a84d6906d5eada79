import { TRPCError } from '@trpc/server';
import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { MAX_MESSAGE_LENGTH, type THeldRelease } from '../../../domain/messages';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { clients, messageHeldFiles, messagesHeld, messageThreads } from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { clientVisibility, visibleClient } from '../clients';
import { audit } from '../system-log';
import { type TThreadRow, visibleThread } from './access';
import { appendMessage, type TMessageAuthor } from './append';
import { fileAsMessageFiles, messagesFolder } from './attachments';
import { senderOf } from './inbound';
import { forwardingAddress } from './inbound-address';
import { afterMessage } from './notify';
import { addClientUsers } from './people';

/** Mail held for review, newest first, of the clients the member may see. */
export async function listHeld(db: TExecutor, scope: TScope) {
  const rows = await db
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
      // The files kept with it, in the same statement (the index on (org, held, created)).
      files: sql<THeldFile[] | string>`(select coalesce(json_agg(json_build_object('name', f.name,
          'size', f.size) order by f.created_at, f.id), '[]'::json)
        from ${messageHeldFiles} f where f.org_id = ${messagesHeld.orgId} and f.held_id = ${messagesHeld.id})`,
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
  return rows.map((r) => ({
    ...r,
    files: (typeof r.files === 'string' ? (JSON.parse(r.files) as THeldFile[]) : r.files).map((f) => ({
      name: f.name,
      size: Number(f.size),
    })),
  }));
}
type THeldFile = { name: string; size: number };

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

/** The files kept with a held mail, oldest first (locked with it when `lock`). */
async function heldFiles(tx: TExecutor, orgId: string, heldId: string, lock = false) {
  const query = tx
    .select()
    .from(messageHeldFiles)
    .where(and(eq(messageHeldFiles.orgId, orgId), eq(messageHeldFiles.heldId, heldId)))
    .orderBy(asc(messageHeldFiles.createdAt), asc(messageHeldFiles.id));
  return lock ? query.for('update') : query;
}

/**
 * The client a release files into, read before its transaction: its Messages folder is set up
 * (in a transaction of its own, as every upload's) when the mail has files. The transaction checks
 * the thread or client again.
 */
async function releaseFolder(db: TDb, scope: TScope, input: THeldRelease) {
  const [file] = await db
    .select({ id: messageHeldFiles.id })
    .from(messageHeldFiles)
    .where(and(eq(messageHeldFiles.orgId, scope.orgId), eq(messageHeldFiles.heldId, input.heldId)))
    .limit(1);
  if (!file) return null;
  const clientId = input.threadId
    ? (await visibleThread(db, scope, input.threadId)).clientId
    : (input.clientId ?? '');
  const client = await visibleClient(db, scope, clientId);
  return messagesFolder(db, scope.orgId, client.id, client.name);
}

/**
 * Reviewed and wanted: the mail is posted into a conversation the member chooses (one they may see,
 * or a new one of a client they may see). Its sender is who they are to that client (a portal user
 * of the client, a member of the firm: posted as them) or else the outside address itself, never a
 * person it claims to be. As a note unless the member shows it to the client. The files kept with it
 * become the message's files in the client's Messages folder, as an inbound mail's are (shared with
 * the client only when the message is); files too large to keep are named in the text.
 */
export async function releaseHeld(db: TDb, scope: TScope, input: THeldRelease, meta: TRequestMeta) {
  const folderId = await releaseFolder(db, scope, input);
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
    const files = await heldFiles(tx, scope.orgId, held.id, true);
    // Files kept since the folder was looked for (none are added to a held mail): try again.
    if (files.length && !folderId) throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
    const known = await senderOf(tx, scope.orgId, thread.clientId, held.fromAddress.toLowerCase());
    const author: TMessageAuthor = known ?? { kind: 'external', email: held.fromAddress };
    // The client's own person, shown their mail in the thread (or starting a new one), is on it.
    if (known?.kind === 'client_user' && (created || !input.internal))
      await addClientUsers(tx, thread, [known.clientUserId]);
    const notKept = held.attachmentNames.length
      ? `\n\n(Files not kept when the mail was held: ${held.attachmentNames.join(', ')})`
      : '';
    const text = held.body.trim() || (files.length ? '(files attached)' : '(no text)');
    const body = `${text}${notKept}`.slice(0, MAX_MESSAGE_LENGTH);
    const { message } = await appendMessage(tx, thread, author, {
      body,
      internal: input.internal,
      mentions: [],
      attachmentIds: [],
      source: 'email',
    });
    // Filed by whom the mail is from when they are the client's or the firm's; an outside
    // address's files by the member who released them.
    const filed =
      files.length && folderId
        ? await fileAsMessageFiles(tx, {
            thread,
            folderId,
            messageId: message.id,
            files,
            shared: !input.internal,
            by:
              known?.kind === 'client_user'
                ? { clientUserId: known.clientUserId }
                : { memberId: known?.kind === 'member' ? known.memberId : scope.memberId },
          })
        : [];
    // The bytes are the documents' now: the held record of them goes.
    if (files.length)
      await tx
        .delete(messageHeldFiles)
        .where(and(eq(messageHeldFiles.orgId, scope.orgId), eq(messageHeldFiles.heldId, held.id)));
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
      } “${thread.subject}”${input.internal ? ' as an internal note' : ''}${
        filed.length ? `, filing ${filed.map((f) => `“${f.name}”`).join(', ')} in the Messages folder` : ''
      }`,
    });
    await afterMessage(tx, { ...thread, lastSeq: message.seq }, message, author, []);
    return {
      threadId: thread.id,
      clientId: thread.clientId,
      messageId: message.id,
      files: filed.map((f) => f.name),
    };
  });
}

/** Reviewed and not wanted: it leaves the list (the row stays, with who discarded it; its files go). */
export async function discardHeld(
  db: TDb,
  storage: TStorage,
  scope: TScope,
  heldId: string,
  meta: TRequestMeta,
) {
  const result = await db.transaction(async (tx) => {
    const row = await pendingHeld(tx, scope, heldId);
    const files = await tx
      .delete(messageHeldFiles)
      .where(and(eq(messageHeldFiles.orgId, scope.orgId), eq(messageHeldFiles.heldId, row.id)))
      .returning({ storageKey: messageHeldFiles.storageKey, name: messageHeldFiles.name });
    await tx
      .update(messagesHeld)
      .set({ discardedAt: new Date(), discardedBy: scope.memberId })
      .where(and(eq(messagesHeld.orgId, scope.orgId), eq(messagesHeld.id, row.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'message.held.discard',
      recordType: 'messageHeld',
      recordId: row.id,
      summary: `Discarded a held mail from ${row.fromAddress}: “${row.subject}”${
        files.length ? ` and its ${files.length === 1 ? 'file' : `${files.length} files`}` : ''
      }`,
    });
    return { id: row.id, keys: files.map((f) => f.storageKey) };
  });
  // After the commit: a delete that fails leaves bytes nothing names, for the orphan sweep.
  for (const key of result.keys) await storage.delete(key).catch(() => {});
  return { id: result.id };
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
