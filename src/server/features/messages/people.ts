import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import {
  clientUserClients,
  clientUsers,
  members,
  messageThreadClientUsers,
  messageThreadMembers,
} from '../../db/schema';
import { memberName } from '../../db/sql';
import type { TThreadRow } from './access';

/** Only the client's own active (or invited) portal users may be put on its thread. */
export async function checkClientUsers(tx: TExecutor, orgId: string, clientId: string, ids: string[]) {
  if (!ids.length) return [];
  const rows = await tx
    .select({ id: clientUsers.id, name: clientUsers.name, email: clientUsers.email })
    .from(clientUsers)
    .innerJoin(
      clientUserClients,
      and(
        eq(clientUserClients.orgId, clientUsers.orgId),
        eq(clientUserClients.clientUserId, clientUsers.id),
        eq(clientUserClients.clientId, clientId),
      ),
    )
    .where(and(eq(clientUsers.orgId, orgId), inArray(clientUsers.id, ids)));
  if (rows.length !== ids.length)
    throw new TRPCError({ code: 'BAD_REQUEST', message: "Choose people from this client's portal users" });
  return rows;
}

/** Only the firm's active members may be put on a thread or be assigned it. */
export async function checkMembers(tx: TExecutor, orgId: string, ids: string[]) {
  if (!ids.length) return [];
  const rows = await tx
    .select({ id: members.id, name: memberName })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, ids), eq(members.status, 'active')));
  if (rows.length !== ids.length)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose members of the firm from the list' });
  return rows;
}

export async function addMembers(tx: TExecutor, thread: TThreadRow, ids: string[]) {
  if (!ids.length) return;
  await tx
    .insert(messageThreadMembers)
    .values(
      ids.map((memberId) => ({ orgId: thread.orgId, threadId: thread.id, memberId, participant: true })),
    )
    .onConflictDoUpdate({
      target: [messageThreadMembers.orgId, messageThreadMembers.threadId, messageThreadMembers.memberId],
      set: { participant: true },
    });
}

export async function addClientUsers(tx: TExecutor, thread: TThreadRow, ids: string[]) {
  if (!ids.length) return;
  await tx
    .insert(messageThreadClientUsers)
    .values(ids.map((clientUserId) => ({ orgId: thread.orgId, threadId: thread.id, clientUserId })))
    .onConflictDoNothing();
}

/** Who is on a thread: the firm's members and the client's portal users, with their read marks. */
export async function threadPeople(db: TExecutor, thread: Pick<TThreadRow, 'orgId' | 'id'>) {
  const [staff, clientSide] = await Promise.all([
    db
      .select({
        id: members.id,
        name: memberName,
        email: members.email,
        readSeq: messageThreadMembers.readSeq,
      })
      .from(messageThreadMembers)
      .innerJoin(
        members,
        and(eq(members.orgId, messageThreadMembers.orgId), eq(members.id, messageThreadMembers.memberId)),
      )
      .where(
        and(
          eq(messageThreadMembers.orgId, thread.orgId),
          eq(messageThreadMembers.threadId, thread.id),
          eq(messageThreadMembers.participant, true),
        ),
      )
      .orderBy(memberName),
    db
      .select({
        id: clientUsers.id,
        name: clientUsers.name,
        email: clientUsers.email,
        readSeq: messageThreadClientUsers.readSeq,
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
          eq(messageThreadClientUsers.orgId, thread.orgId),
          eq(messageThreadClientUsers.threadId, thread.id),
        ),
      )
      .orderBy(clientUsers.name),
  ]);
  return { members: staff, clientUsers: clientSide };
}
