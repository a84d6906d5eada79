import { and, eq } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { clientUserClients, clientUsers, messageThreads } from '../../db/schema';
import { appendMessage } from './append';
import { afterMessage } from './notify';
import { addClientUsers } from './people';

/**
 * A message to the client written by something other than a person at the keyboard (an automation
 * rule), as `authorMemberId`: into `threadId` when it is the client's, else a new conversation with
 * the client's active portal people. The thread's own rules follow: its staff told, the client's
 * people mailed after the usual delay if they have not read it. The caller writes the log row.
 */
export async function postClientMessage(
  tx: TExecutor,
  input: {
    orgId: string;
    clientId: string;
    threadId: string | null;
    subject: string;
    body: string;
    authorMemberId: string;
  },
) {
  const author = { kind: 'member' as const, memberId: input.authorMemberId };
  let [thread] = input.threadId
    ? await tx
        .select()
        .from(messageThreads)
        .where(
          and(
            eq(messageThreads.orgId, input.orgId),
            eq(messageThreads.id, input.threadId),
            eq(messageThreads.clientId, input.clientId),
          ),
        )
        .limit(1)
        .for('update')
    : [];
  let created = false;
  if (!thread) {
    [thread] = await tx
      .insert(messageThreads)
      .values({
        orgId: input.orgId,
        clientId: input.clientId,
        subject: input.subject.slice(0, 200),
        createdByMemberId: input.authorMemberId,
      })
      .returning();
    if (!thread) throw new Error('thread not created');
    const people = await tx
      .select({ id: clientUsers.id })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(
        and(
          eq(clientUserClients.orgId, input.orgId),
          eq(clientUserClients.clientId, input.clientId),
          eq(clientUsers.status, 'active'),
        ),
      );
    await addClientUsers(
      tx,
      thread,
      people.map((p) => p.id),
    );
    created = true;
  }
  const { message } = await appendMessage(tx, thread, author, {
    body: input.body,
    internal: false,
    mentions: [],
    attachmentIds: [],
    source: 'app',
  });
  await afterMessage(tx, { ...thread, lastSeq: message.seq }, message, author, []);
  return { threadId: thread.id, subject: thread.subject, seq: message.seq, created };
}
