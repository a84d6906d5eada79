import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Attachment, simpleParser } from 'mailparser';
import { v7 as uuidv7 } from 'uuid';
import { ZDocumentName } from '../../../domain/documents';
import { baseSubject, trimReply } from '../../../domain/email-reply';
import { MAX_MESSAGE_LENGTH } from '../../../domain/messages';
import type { TActor } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clients,
  clientUserClients,
  clientUsers,
  members,
  messageHeldFiles,
  messageMailIds,
  messagesHeld,
  messageThreadClientUsers,
  messageThreadMembers,
  messageThreads,
} from '../../db/schema';
import type { TStorage } from '../../files/storage';
import { sniffContentType } from '../documents';
import { audit } from '../system-log';
import type { TThreadRow } from './access';
import { appendMessage, type TAuthor } from './append';
import { messagesFolder, recordAttachment } from './attachments';
import { parseInboundAddress, type TInboundTarget } from './inbound-address';
import { afterMessage } from './notify';
import { addClientUsers } from './people';

// Mail into conversations (issue 38, item 3), whichever door it came by (the SMTP listener, a
// provider's webhook): parsed with mailparser, each of our addresses among its recipients handled
// on its own. A reply to a thread's address from someone on the thread is posted as them (quoted
// history and signature trimmed); a mail to a client's forwarding address from a member of the firm
// (a forward, or a BCC of their own mail) or from the client's portal user is filed in a thread of
// that client, continued by subject or new. Anything else is held for review, never posted.

export type TInboundDeps = {
  db: TDb;
  config: Pick<TConfig, 'vault' | 'inbound' | 'storage'>;
  storage: TStorage;
};
export type TInboundOutcome =
  | { address: string; outcome: 'posted'; threadId: string; messageId: string }
  | { address: string; outcome: 'held'; reason: string; heldId: string }
  | { address: string; outcome: 'ignored' };

/** Text a person may type: no NUL nor unpaired surrogates, at most `max` characters. */
const clean = (text: string, max: number) =>
  text
    .replaceAll(String.fromCharCode(0), '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .slice(0, max);

const system = (orgId: string): TActor => ({ kind: 'system', orgId });

/** At most this many of a held mail's files are kept (each under the upload size limit). */
const HELD_FILES_MAX = 20;

/** A mail file as a stored upload, its name and type checked as an upload's. */
async function storeFile(deps: TInboundDeps, orgId: string, file: Attachment) {
  const name = ZDocumentName.safeParse(file.filename ?? '');
  const storageKey = `${orgId}/${uuidv7()}`;
  await deps.storage.put(storageKey, Readable.from(file.content), {
    contentType: 'application/octet-stream',
  });
  return {
    name: name.success ? name.data : 'attachment',
    size: file.content.length,
    contentType: sniffContentType(file.content.subarray(0, 4100), file.contentType),
    checksumSha256: createHash('sha256').update(file.content).digest('hex'),
    storageKey,
  };
}

/**
 * Records a mail for review. Its files (up to HELD_FILES_MAX, each under the upload size limit) are
 * stored, not filed: nobody sees them as the client's documents until a member releases the mail;
 * the names of any others are listed as not kept.
 */
async function hold(
  deps: TInboundDeps,
  input: {
    orgId: string;
    threadId?: string;
    clientId?: string;
    from: string;
    subject: string;
    body: string;
    reason: string;
    files: Attachment[];
  },
) {
  const keep = input.files
    .filter((f) => f.content.length <= deps.config.storage.maxBytes)
    .slice(0, HELD_FILES_MAX);
  const notKept = input.files.filter((f) => !keep.includes(f)).map((f) => f.filename ?? 'attachment');
  const stored: Awaited<ReturnType<typeof storeFile>>[] = [];
  try {
    for (const file of keep) stored.push(await storeFile(deps, input.orgId, file));
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(messagesHeld)
        .values({
          orgId: input.orgId,
          threadId: input.threadId ?? null,
          clientId: input.clientId ?? null,
          fromAddress: clean(input.from, 320),
          subject: clean(input.subject, 200),
          body: clean(input.body, MAX_MESSAGE_LENGTH),
          reason: input.reason,
          attachmentNames: notKept.slice(0, 50).map((n) => clean(n, 255)),
        })
        .returning({ id: messagesHeld.id });
      if (!row) throw new Error('held mail not recorded');
      if (stored.length)
        await tx
          .insert(messageHeldFiles)
          .values(stored.map((f) => ({ ...f, orgId: input.orgId, heldId: row.id })));
      await audit(tx, system(input.orgId), {
        action: 'message.held',
        recordType: 'messageHeld',
        recordId: row.id,
        summary: `Held a mail from ${clean(input.from, 320)} for review (${input.reason.replace('_', ' ')}): “${clean(input.subject, 200)}”${
          stored.length ? ` with ${stored.length} file${stored.length === 1 ? '' : 's'} kept` : ''
        }`,
      });
      return row.id;
    });
  } catch (error) {
    for (const f of stored) await deps.storage.delete(f.storageKey).catch(() => {});
    throw error;
  }
}

/** The sender as a person of the thread's client or firm, or null. */
export async function senderOf(db: TExecutor, orgId: string, clientId: string, email: string) {
  const [portal] = await db
    .select({ id: clientUsers.id })
    .from(clientUsers)
    .innerJoin(
      clientUserClients,
      and(
        eq(clientUserClients.orgId, clientUsers.orgId),
        eq(clientUserClients.clientUserId, clientUsers.id),
        eq(clientUserClients.clientId, clientId),
      ),
    )
    .where(
      and(eq(clientUsers.orgId, orgId), eq(clientUsers.email, email), ne(clientUsers.status, 'disabled')),
    )
    .limit(1);
  if (portal) return { kind: 'client_user' as const, clientUserId: portal.id };
  const [member] = await db
    .select({ id: members.id })
    .from(members)
    .where(
      and(eq(members.orgId, orgId), sql`lower(${members.email}) = ${email}`, eq(members.status, 'active')),
    )
    .limit(1);
  return member ? { kind: 'member' as const, memberId: member.id } : null;
}

/** On the thread: a portal user put on it, or a member on it or assigned to it. */
async function onThread(db: TExecutor, thread: TThreadRow, author: TAuthor) {
  if (author.kind === 'client_user') {
    const [row] = await db
      .select({ id: messageThreadClientUsers.clientUserId })
      .from(messageThreadClientUsers)
      .where(
        and(
          eq(messageThreadClientUsers.orgId, thread.orgId),
          eq(messageThreadClientUsers.threadId, thread.id),
          eq(messageThreadClientUsers.clientUserId, author.clientUserId),
        ),
      );
    return Boolean(row);
  }
  if (thread.assigneeId === author.memberId) return true;
  const [row] = await db
    .select({ id: messageThreadMembers.memberId })
    .from(messageThreadMembers)
    .where(
      and(
        eq(messageThreadMembers.orgId, thread.orgId),
        eq(messageThreadMembers.threadId, thread.id),
        eq(messageThreadMembers.memberId, author.memberId),
        eq(messageThreadMembers.participant, true),
      ),
    );
  return Boolean(row);
}

/** Stores the mail's files in the client's Messages folder, waiting for the message they come with. */
async function fileAttachments(deps: TInboundDeps, thread: TThreadRow, author: TAuthor, files: Attachment[]) {
  if (!files.length) return [];
  const [client] = await deps.db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.orgId, thread.orgId), eq(clients.id, thread.clientId)));
  const folderId = await messagesFolder(deps.db, thread.orgId, thread.clientId, client?.name ?? '');
  const ids: string[] = [];
  const actor: TActor =
    author.kind === 'member'
      ? { kind: 'member', orgId: thread.orgId, memberId: author.memberId }
      : { kind: 'client_user', orgId: thread.orgId, clientUserId: author.clientUserId };
  for (const file of files) {
    if (file.content.length > deps.config.storage.maxBytes) continue;
    const upload = await storeFile(deps, thread.orgId, file);
    try {
      const saved = await recordAttachment(deps.db, {
        thread,
        folderId,
        upload,
        by: author.kind === 'member' ? { memberId: author.memberId } : { clientUserId: author.clientUserId },
        actor,
        recheck: async () => {},
      });
      ids.push(saved.documentId);
    } catch (error) {
      await deps.storage.delete(upload.storageKey).catch(() => {});
      throw error;
    }
  }
  return ids;
}

async function post(
  deps: TInboundDeps,
  thread: TThreadRow,
  author: TAuthor,
  input: { body: string; internal: boolean; files: Attachment[]; how: string; mailId: string | null },
) {
  const attachmentIds = await fileAttachments(deps, thread, author, input.files);
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(messageThreads)
      .where(and(eq(messageThreads.orgId, thread.orgId), eq(messageThreads.id, thread.id)))
      .for('update');
    if (!locked) throw new Error('thread gone');
    const { message } = await appendMessage(tx, locked, author, {
      body: input.body,
      internal: input.internal,
      mentions: [],
      attachmentIds,
      source: 'email',
    });
    const actor: TActor =
      author.kind === 'member'
        ? { kind: 'member', orgId: thread.orgId, memberId: author.memberId }
        : { kind: 'client_user', orgId: thread.orgId, clientUserId: author.clientUserId };
    await audit(tx, actor, {
      action: input.internal ? 'message.note.add' : 'message.add',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `${input.how} the conversation “${locked.subject}” by email${
        attachmentIds.length
          ? ` with ${attachmentIds.length} file${attachmentIds.length === 1 ? '' : 's'}`
          : ''
      }`,
    });
    // Its own Message-ID, so a later mail in answer to it finds this thread.
    if (input.mailId)
      await tx
        .insert(messageMailIds)
        .values({ orgId: thread.orgId, messageIdHeader: input.mailId, threadId: thread.id, direction: 'in' })
        .onConflictDoNothing();
    await afterMessage(tx, { ...locked, lastSeq: message.seq }, message, author, []);
    return message.id;
  });
}

/** A mail of this Message-ID already filed by the firm (a provider's retry, a second copy): not twice. */
async function alreadyFiled(db: TExecutor, orgId: string, mailId: string | null) {
  if (!mailId) return false;
  const [row] = await db
    .select({ threadId: messageMailIds.threadId })
    .from(messageMailIds)
    .where(
      and(
        eq(messageMailIds.orgId, orgId),
        eq(messageMailIds.messageIdHeader, mailId),
        eq(messageMailIds.direction, 'in'),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The client's thread this mail answers (a Message-ID of its In-Reply-To or References that the
 * thread's mail carried, either way), else its open thread of the same subject, that the sender may
 * write in; else a new one.
 */
async function threadForForward(
  db: TDb,
  orgId: string,
  clientId: string,
  mail: { subject: string; refs: string[] },
  author: TAuthor,
) {
  if (mail.refs.length) {
    const [byRef] = await db
      .select({ thread: messageThreads })
      .from(messageMailIds)
      .innerJoin(
        messageThreads,
        and(eq(messageThreads.orgId, messageMailIds.orgId), eq(messageThreads.id, messageMailIds.threadId)),
      )
      .where(
        and(
          eq(messageMailIds.orgId, orgId),
          inArray(messageMailIds.messageIdHeader, mail.refs),
          eq(messageThreads.clientId, clientId),
        ),
      )
      .orderBy(desc(messageMailIds.createdAt))
      .limit(1);
    if (byRef && (author.kind === 'member' || (await onThread(db, byRef.thread, author))))
      return byRef.thread;
  }
  const subject = mail.subject;
  const base = baseSubject(subject) || '(no subject)';
  const [found] = await db
    .select()
    .from(messageThreads)
    .where(
      and(
        eq(messageThreads.orgId, orgId),
        eq(messageThreads.clientId, clientId),
        eq(messageThreads.status, 'open'),
        sql`lower(${messageThreads.subject}) = lower(${clean(base, 200)})`,
      ),
    )
    .orderBy(desc(messageThreads.lastMessageAt))
    .limit(1);
  if (found && (author.kind === 'member' || (await onThread(db, found, author)))) return found;
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(messageThreads)
      .values({
        orgId,
        clientId,
        subject: clean(base, 200),
        createdByMemberId: author.kind === 'member' ? author.memberId : null,
        createdByClientUserId: author.kind === 'client_user' ? author.clientUserId : null,
      })
      .returning();
    if (!made) throw new Error('thread not created');
    if (author.kind === 'client_user') await addClientUsers(tx, made, [author.clientUserId]);
    await audit(tx, system(orgId), {
      action: 'message.thread.create',
      recordType: 'messageThread',
      recordId: made.id,
      summary: `Started the conversation “${made.subject}” from a mail to the client's forwarding address`,
    });
    return made;
  });
}

async function deliver(
  deps: TInboundDeps,
  address: string,
  target: TInboundTarget,
  mail: {
    from: string;
    subject: string;
    text: string;
    files: Attachment[];
    mailId: string | null;
    refs: string[];
  },
): Promise<TInboundOutcome> {
  const { db } = deps;
  const heldFor = async (orgId: string, reason: string, ids: { threadId?: string; clientId?: string }) => ({
    address,
    outcome: 'held' as const,
    reason,
    heldId: await hold(deps, {
      orgId,
      ...ids,
      from: mail.from,
      subject: mail.subject,
      body: mail.text,
      reason,
      files: mail.files,
    }),
  });
  if (target.kind === 'reply') {
    const [thread] = await db.select().from(messageThreads).where(eq(messageThreads.id, target.id)).limit(1);
    if (!thread) return { address, outcome: 'ignored' };
    if (!target.tokenOk)
      return heldFor(thread.orgId, 'bad_token', { threadId: thread.id, clientId: thread.clientId });
    const author = await senderOf(db, thread.orgId, thread.clientId, mail.from);
    if (!author || !(await onThread(db, thread, author)))
      return heldFor(thread.orgId, 'not_participant', { threadId: thread.id, clientId: thread.clientId });
    const body =
      clean(trimReply(mail.text), MAX_MESSAGE_LENGTH) || (mail.files.length ? '(files attached)' : '');
    if (!body) return heldFor(thread.orgId, 'empty', { threadId: thread.id, clientId: thread.clientId });
    if (await alreadyFiled(db, thread.orgId, mail.mailId)) return { address, outcome: 'ignored' };
    const messageId = await post(deps, thread, author, {
      body,
      internal: false,
      files: mail.files,
      how: 'Replied in',
      mailId: mail.mailId,
    });
    return { address, outcome: 'posted', threadId: thread.id, messageId };
  }
  const [client] = await db
    .select({ id: clients.id, orgId: clients.orgId })
    .from(clients)
    .where(eq(clients.id, target.id))
    .limit(1);
  if (!client) return { address, outcome: 'ignored' };
  if (!target.tokenOk) return heldFor(client.orgId, 'bad_token', { clientId: client.id });
  const author = await senderOf(db, client.orgId, client.id, mail.from);
  if (!author) return heldFor(client.orgId, 'not_member', { clientId: client.id });
  if (await alreadyFiled(db, client.orgId, mail.mailId)) return { address, outcome: 'ignored' };
  const thread = await threadForForward(db, client.orgId, client.id, mail, author);
  // A member's forward is the firm's copy of correspondence the client already has: a note.
  const body = clean(mail.text.trim(), MAX_MESSAGE_LENGTH) || '(files attached)';
  const messageId = await post(deps, thread, author, {
    body,
    internal: author.kind === 'member',
    files: mail.files,
    how: 'Filed a mail in',
    mailId: mail.mailId,
  });
  return { address, outcome: 'posted', threadId: thread.id, messageId };
}

/** Message-IDs of a header as mailparser hands it over ("<a@b>", "<a@b> <c@d>", a list), without brackets. */
export function mailIdsOf(value: string | string[] | undefined): string[] {
  const all = (Array.isArray(value) ? value : value ? [value] : []).flatMap((v) => v.split(/\s+/));
  return all
    .map((v) => v.trim().replace(/^<|>$/g, ''))
    .filter((v) => v.length > 2 && v.length <= 500 && v.includes('@'));
}

/**
 * One mail in: the raw message (at most INBOUND_MAX_BYTES, checked by the door) and the envelope's
 * recipients (a webhook without an envelope passes the To and Cc addresses).
 */
export async function receiveInbound(
  deps: TInboundDeps,
  raw: Buffer,
  recipients?: string[],
): Promise<TInboundOutcome[]> {
  if (!deps.config.inbound) return [];
  const parsed = await simpleParser(raw, { skipImageLinks: true, maxHtmlLengthToParse: 2_000_000 });
  const addressesOf = (v: typeof parsed.to) =>
    (Array.isArray(v) ? v : v ? [v] : []).flatMap((a) => a.value.map((x) => x.address ?? ''));
  const to = recipients?.length ? recipients : [...addressesOf(parsed.to), ...addressesOf(parsed.cc)];
  const mail = {
    from: (parsed.from?.value[0]?.address ?? '').toLowerCase(),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    files: parsed.attachments.filter((a) => a.contentDisposition !== 'inline' || a.filename),
    mailId: mailIdsOf(parsed.messageId)[0] ?? null,
    // What it answers: its In-Reply-To first, then its References newest first (at most 20).
    refs: [...new Set([...mailIdsOf(parsed.inReplyTo), ...mailIdsOf(parsed.references).reverse()])].slice(
      0,
      20,
    ),
  };
  const out: TInboundOutcome[] = [];
  for (const address of [...new Set(to.map((a) => a.toLowerCase()))]) {
    const target = await parseInboundAddress(deps.config, deps.db, address);
    if (!target) continue;
    out.push(await deliver(deps, address, target, mail));
  }
  return out;
}
