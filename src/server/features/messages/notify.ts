import { and, eq, sql } from 'drizzle-orm';
import { threadLink } from '../../../domain/messages';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientTeam, type messages, messageThreadMembers } from '../../db/schema';
import { enqueue } from '../../jobs/queue';
import { notify } from '../notifications';
import type { TThreadRow } from './access';
import type { TMessageAuthor } from './append';
import { addMembers } from './people';

/** The job that mails what people have not read, a short while after a message. */
export const MESSAGES_MAIL = 'messages.mail';
/**
 * How long a message waits before it is mailed to those who have not read it: a quick exchange in
 * the app (both sides looking at the thread) mails nobody, and a burst of lines goes as one mail.
 */
export const MESSAGE_MAIL_DELAY_MS = 2 * 60_000;

/**
 * The firm's members a thread's message reaches: those on it and its assignee; when nobody is
 * assigned, a message from the client also reaches the client's team (so it is never unseen).
 */
export async function staffAudience(tx: TExecutor, thread: TThreadRow, fromClient: boolean) {
  const on = await tx
    .select({ memberId: messageThreadMembers.memberId })
    .from(messageThreadMembers)
    .where(
      and(
        eq(messageThreadMembers.orgId, thread.orgId),
        eq(messageThreadMembers.threadId, thread.id),
        eq(messageThreadMembers.participant, true),
      ),
    );
  const ids = new Set(on.map((r) => r.memberId));
  if (thread.assigneeId) ids.add(thread.assigneeId);
  else if (fromClient) {
    const team = await tx
      .select({ memberId: clientTeam.memberId })
      .from(clientTeam)
      .where(and(eq(clientTeam.orgId, thread.orgId), eq(clientTeam.clientId, thread.clientId)));
    for (const r of team) ids.add(r.memberId);
  }
  return [...ids];
}

const authorName = async (tx: TExecutor, message: typeof messages.$inferSelect) => {
  const rows = await tx.execute(sql`select coalesce(
      (select coalesce(nullif(trim(m.first_name || ' ' || m.last_name), ''), m.email) from members m
        where m.org_id = ${message.orgId} and m.id = ${message.authorMemberId}),
      (select c.name from client_users c where c.org_id = ${message.orgId} and c.id = ${message.authorClientUserId}),
      'Someone') as name`);
  const list = Array.isArray(rows) ? rows : ((rows as { rows?: { name: string }[] }).rows ?? []);
  return String((list[0] as { name?: string } | undefined)?.name ?? 'Someone');
};

/**
 * After a message: the members it reaches are told in the app now (their preferences decide), the
 * mentioned ones put on the thread and told as mentioned; the mail waits (MESSAGE_MAIL_DELAY_MS) in
 * the job queue and goes only to those who have not read it by then.
 */
export async function afterMessage(
  tx: TExecutor,
  thread: TThreadRow,
  message: typeof messages.$inferSelect,
  author: TMessageAuthor,
  mentionIds: string[],
) {
  const self = author.kind === 'member' ? author.memberId : null;
  const mentioned = mentionIds.filter((id) => id !== self);
  await addMembers(tx, thread, mentioned);
  const audience = (await staffAudience(tx, thread, author.kind !== 'member')).filter(
    (id) => id !== self && !mentioned.includes(id),
  );
  const name = await authorName(tx, message);
  const link = threadLink(thread.id, thread.clientId);
  const body = message.body.slice(0, 2000);
  if (mentioned.length)
    await notify(
      tx,
      {
        orgId: thread.orgId,
        memberIds: mentioned,
        kind: 'message.mentioned',
        title: `${name} mentioned you in “${thread.subject.slice(0, 150)}”`,
        body,
        link,
      },
      { email: false },
    );
  if (audience.length)
    await notify(
      tx,
      {
        orgId: thread.orgId,
        memberIds: audience,
        kind: 'message.received',
        title: `${name}${message.internal ? ' (internal note)' : ''}: “${thread.subject.slice(0, 150)}”`,
        body,
        link,
      },
      { email: false },
    );
  await enqueue(
    tx,
    MESSAGES_MAIL,
    { orgId: thread.orgId, threadId: thread.id, seq: message.seq },
    {
      orgId: thread.orgId,
      runAt: new Date(Date.now() + MESSAGE_MAIL_DELAY_MS),
      dedupeKey: `${MESSAGES_MAIL}:${thread.id}:${message.seq}`,
    },
  );
}

/** A thread assigned to a member: told in the app and by mail, as their preferences say. */
export async function notifyAssigned(tx: TExecutor, scope: TScope, thread: TThreadRow, memberId: string) {
  await notify(tx, {
    orgId: scope.orgId,
    memberIds: [memberId],
    kind: 'message.assigned',
    title: `Conversation assigned to you: “${thread.subject.slice(0, 150)}”`,
    link: threadLink(thread.id, thread.clientId),
  });
}
