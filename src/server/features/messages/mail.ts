import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { portalThreadLink, threadLink } from '../../../domain/messages';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import {
  clientUsers,
  members,
  messageMailIds,
  messages,
  messageThreadClientUsers,
  messageThreadMembers,
  messageThreads,
  notificationPreferences,
  orgs,
} from '../../db/schema';
import { memberName } from '../../db/sql';
import { registerJob } from '../../jobs/registry';
import { absoluteLink, enqueueMail } from '../../mail';
import type { TThreadRow } from './access';
import { replyAddress } from './inbound-address';
import { MESSAGES_MAIL, staffAudience } from './notify';

// The delayed mail of a thread (issue 38, item 3): a while after a message (notify.ts), each person
// of the thread who has not read it by then gets one mail with everything they have not read nor
// been mailed, newest last. The marks move in the transaction that queues the mail, so a job run
// twice (or two jobs of one burst) mails nothing twice; a person who read it in the app gets nothing.

const ZPayload = z.object({ orgId: z.uuid(), threadId: z.uuid(), seq: z.number().int().min(1) });

type TLine = { seq: number; body: string; internal: boolean; authorName: string; mine: boolean };

async function linesAfter(tx: TExecutor, thread: TThreadRow, after: number, withInternal: boolean) {
  return tx
    .select({
      seq: messages.seq,
      body: messages.body,
      internal: messages.internal,
      authorMemberId: messages.authorMemberId,
      authorClientUserId: messages.authorClientUserId,
      authorName: sql<string>`coalesce(${memberName}, ${clientUsers.name}, ${messages.authorEmail}, 'Someone')`,
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
        gt(messages.seq, after),
        withInternal ? undefined : eq(messages.internal, false),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(50);
}

/**
 * A fresh Message-ID for one mail of the thread, remembered with it: a reply that names it (In-Reply-To,
 * References) and reaches the client's forwarding address continues this thread (inbound.ts).
 */
async function threadMessageId(
  tx: TExecutor,
  config: Pick<TConfig, 'publicUrl' | 'inbound'>,
  thread: TThreadRow,
) {
  const host = config.inbound?.domain ?? new URL(config.publicUrl).hostname;
  const id = `thread.${uuidv7()}@${host}`;
  await tx.insert(messageMailIds).values({
    orgId: thread.orgId,
    messageIdHeader: id,
    threadId: thread.id,
    direction: 'out',
    seq: thread.lastSeq,
  });
  return `<${id}>`;
}

const digest = (lines: TLine[]) =>
  lines
    .map((l) => `${l.authorName}${l.internal ? ' (internal note)' : ''} wrote:\n${l.body}`)
    .join('\n\n---\n\n');

/** Mails the thread's people what they have not read since the message `seq` (the job's work). */
export async function sendThreadMail(
  db: TDb,
  config: Pick<TConfig, 'publicUrl' | 'vault' | 'inbound'>,
  payload: unknown,
) {
  const { publicUrl } = config;
  const p = ZPayload.safeParse(payload);
  if (!p.success) return { mailed: 0 };
  const { orgId, threadId, seq } = p.data;
  return db.transaction(async (tx) => {
    const [thread] = await tx
      .select()
      .from(messageThreads)
      .where(and(eq(messageThreads.orgId, orgId), eq(messageThreads.id, threadId)))
      .for('update');
    if (!thread) return { mailed: 0 };
    const [org] = await tx.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
    // A reply to the mail comes back into the thread (when inbound mail is on).
    const replyTo = await replyAddress(config, tx, thread.id);
    const headers = replyTo ? { 'Reply-To': replyTo } : undefined;
    const firmName = org?.name ?? 'Your accountant';
    let mailed = 0;

    // The firm's side: those the message reached, if their mail preference for messages is on.
    const [latest] = await tx
      .select({ fromClient: sql<boolean>`${messages.authorClientUserId} is not null` })
      .from(messages)
      .where(and(eq(messages.orgId, orgId), eq(messages.threadId, threadId), eq(messages.seq, seq)));
    const audience = await staffAudience(tx, thread, latest?.fromClient ?? false);
    for (const memberId of audience) {
      const [person] = await tx
        .select({
          email: members.email,
          readSeq: sql<number>`coalesce(${messageThreadMembers.readSeq}, 0)`,
          mailedSeq: sql<number>`coalesce(${messageThreadMembers.mailedSeq}, 0)`,
          byEmail: sql<boolean>`coalesce(${notificationPreferences.email}, true)`,
        })
        .from(members)
        .leftJoin(
          messageThreadMembers,
          and(
            eq(messageThreadMembers.orgId, members.orgId),
            eq(messageThreadMembers.threadId, thread.id),
            eq(messageThreadMembers.memberId, members.id),
          ),
        )
        .leftJoin(
          notificationPreferences,
          and(
            eq(notificationPreferences.orgId, members.orgId),
            eq(notificationPreferences.memberId, members.id),
            eq(notificationPreferences.kind, 'message.received'),
          ),
        )
        .where(and(eq(members.orgId, orgId), eq(members.id, memberId), eq(members.status, 'active')));
      if (!person?.byEmail) continue;
      const after = Math.max(person.readSeq, person.mailedSeq, seq - 1);
      const lines = (await linesAfter(tx, thread, after, true))
        .filter((l) => l.authorMemberId !== memberId)
        .map((l) => ({ ...l, mine: false }));
      if (!lines.length) continue;
      const link = absoluteLink(publicUrl, threadLink(thread.id, thread.clientId));
      await enqueueMail(
        tx,
        {
          to: person.email,
          subject: `Re: ${thread.subject}`,
          text: `${digest(lines)}\n\nReply in the app${replyTo ? ', or answer this mail' : ''}:\n${link}\n`,
          notes: { link, ...(replyTo ? { replyTo } : {}) },
          headers,
          messageId: await threadMessageId(tx, config, thread),
        },
        { orgId },
      );
      await tx
        .insert(messageThreadMembers)
        .values({ orgId, threadId, memberId, mailedSeq: thread.lastSeq })
        .onConflictDoUpdate({
          target: [messageThreadMembers.orgId, messageThreadMembers.threadId, messageThreadMembers.memberId],
          set: { mailedSeq: thread.lastSeq },
        });
      mailed += 1;
    }

    // The client's side: public messages only, to the thread's portal users who have not read them.
    const people = await tx
      .select({
        id: clientUsers.id,
        name: clientUsers.name,
        email: clientUsers.email,
        readSeq: messageThreadClientUsers.readSeq,
        mailedSeq: messageThreadClientUsers.mailedSeq,
      })
      .from(messageThreadClientUsers)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, messageThreadClientUsers.orgId),
          eq(clientUsers.id, messageThreadClientUsers.clientUserId),
        ),
      )
      .where(
        and(
          eq(messageThreadClientUsers.orgId, orgId),
          eq(messageThreadClientUsers.threadId, threadId),
          sql`${clientUsers.status} <> 'disabled'`,
        ),
      );
    for (const person of people) {
      const after = Math.max(person.readSeq, person.mailedSeq, seq - 1);
      const lines = (await linesAfter(tx, thread, after, false))
        .filter((l) => l.authorClientUserId !== person.id)
        .map((l) => ({ ...l, mine: false }));
      if (!lines.length) continue;
      const link = absoluteLink(publicUrl, portalThreadLink(thread.id, thread.clientId));
      await enqueueMail(
        tx,
        {
          to: person.email,
          subject: `Re: ${thread.subject}`,
          text: `Hello ${person.name},\n\n${digest(lines)}\n\nRead and reply in your portal${
            replyTo ? ', or simply answer this mail' : ''
          }:\n${link}\n\n— ${firmName}\n`,
          notes: { link, ...(replyTo ? { replyTo } : {}) },
          headers,
          messageId: await threadMessageId(tx, config, thread),
        },
        { orgId },
      );
      await tx
        .update(messageThreadClientUsers)
        .set({ mailedSeq: thread.lastSeq })
        .where(
          and(
            eq(messageThreadClientUsers.orgId, orgId),
            eq(messageThreadClientUsers.threadId, threadId),
            eq(messageThreadClientUsers.clientUserId, person.id),
          ),
        );
      mailed += 1;
    }
    return { mailed };
  });
}

export function registerMessageJobs() {
  registerJob(MESSAGES_MAIL, async (job, ctx) => {
    const result = await sendThreadMail(ctx.db, ctx.config, job.payload);
    if (result.mailed) ctx.log.info(result, 'message mail queued');
  });
}
