import { TRPCError } from '@trpc/server';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { TThreadCreate, TThreadList, TThreadPeople, TThreadUpdate } from '../../../domain/messages';
import { LIST_COUNT_CAP, type TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, messages, messageThreadMembers, messageThreads } from '../../db/schema';
import { cappedCount, escapeLike, memberName } from '../../db/sql';
import { visibleClient } from '../clients';
import { audit, diff } from '../system-log';
import { threadNotFound, threadVisibility, visibleThread } from './access';
import { appendMessage } from './append';
import { afterMessage, notifyAssigned } from './notify';
import { addClientUsers, addMembers, checkClientUsers, checkMembers, threadPeople } from './people';

/** The member's read mark on each thread, and "on it": one join the inbox and views share. */
const myRow = (scope: TScope) =>
  and(
    eq(messageThreadMembers.orgId, messageThreads.orgId),
    eq(messageThreadMembers.threadId, messageThreads.id),
    eq(messageThreadMembers.memberId, scope.memberId),
  );

const mine = (scope: TScope) =>
  sql`(${messageThreads.assigneeId} = ${scope.memberId} or ${messageThreads.id} in (
    select tm.thread_id from message_thread_members tm
    where tm.org_id = ${scope.orgId} and tm.member_id = ${scope.memberId} and tm.participant))`;

/**
 * The firm's inbox (and a client's tab): newest activity first, a page at a time. "Unread" is of the
 * member's own threads (assigned or on it) with a message after their read mark; the other views
 * show the unread count per row as well.
 */
export async function listThreads(db: TExecutor, scope: TScope, input: TThreadList) {
  if (input.clientId) await visibleClient(db, scope, input.clientId);
  const unreadOf = sql<number>`greatest(${messageThreads.lastSeq} - coalesce(${messageThreadMembers.readSeq}, 0), 0)`;
  const where = and(
    eq(messageThreads.orgId, scope.orgId),
    input.status === 'any' ? undefined : eq(messageThreads.status, input.status),
    input.clientId ? eq(messageThreads.clientId, input.clientId) : undefined,
    threadVisibility(scope),
    input.view === 'mine' || input.view === 'unread' ? mine(scope) : undefined,
    input.view === 'unassigned' ? sql`${messageThreads.assigneeId} is null` : undefined,
    input.view === 'unread' ? sql`${unreadOf} > 0` : undefined,
    input.search ? searchWhere(scope, input.search) : undefined,
  ) as SQL;
  const base = () =>
    db
      .select({ id: messageThreads.id })
      .from(messageThreads)
      .leftJoin(messageThreadMembers, myRow(scope))
      .where(where);
  // The page and its capped count in one statement (the count an InitPlan beside the rows): one
  // round trip. A page past the end has no row to carry it: counted apart then.
  const total = sql<number>`(select count(*)::int from (${base().limit(LIST_COUNT_CAP + 1)}) as counted)`;
  const found = await db
    .select({
      id: messageThreads.id,
      clientId: messageThreads.clientId,
      clientName: clients.name,
      subject: messageThreads.subject,
      status: messageThreads.status,
      assigneeId: messageThreads.assigneeId,
      assigneeName: sql<string | null>`(select ${memberName} from ${members}
        where ${members.orgId} = ${messageThreads.orgId} and ${members.id} = ${messageThreads.assigneeId})`,
      lastMessageAt: messageThreads.lastMessageAt,
      lastPreview: messageThreads.lastPreview,
      messageCount: messageThreads.lastSeq,
      unread: unreadOf,
      total,
    })
    .from(messageThreads)
    .innerJoin(clients, and(eq(clients.orgId, messageThreads.orgId), eq(clients.id, messageThreads.clientId)))
    .leftJoin(messageThreadMembers, myRow(scope))
    .where(where)
    .orderBy(desc(messageThreads.lastMessageAt), desc(messageThreads.id))
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  const n = found.length ? Number(found[0]?.total ?? 0) : null;
  const counted =
    n === null
      ? await cappedCount(db, base())
      : { total: Math.min(n, LIST_COUNT_CAP), totalCapped: n > LIST_COUNT_CAP };
  const rows = found.map(({ total: _, ...row }) => ({ ...row, unread: Number(row.unread) }));
  return {
    rows,
    total: counted.total,
    totalCapped: counted.totalCapped,
    page: input.page,
    pageSize: input.pageSize,
  } satisfies TPage<(typeof rows)[number]>;
}
export type TThreadListRow = Awaited<ReturnType<typeof listThreads>>['rows'][number];

/** Subject or any message's text (internal notes too: the firm searches its own notes). */
function searchWhere(scope: TScope, search: string) {
  const pattern = escapeLike(search.toLowerCase());
  return sql`(lower(${messageThreads.subject}) like ${pattern} or exists (
    select 1 from ${messages} m where m.org_id = ${scope.orgId} and m.thread_id = ${messageThreads.id}
      and lower(m.body) like ${pattern}))`;
}

/** The member's unread total over their own threads, for the navigation's badge. */
export async function unreadCount(db: TExecutor, scope: TScope) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messageThreadMembers)
    .innerJoin(
      messageThreads,
      and(
        eq(messageThreads.orgId, messageThreadMembers.orgId),
        eq(messageThreads.id, messageThreadMembers.threadId),
      ),
    )
    .where(
      and(
        eq(messageThreadMembers.orgId, scope.orgId),
        eq(messageThreadMembers.memberId, scope.memberId),
        eq(messageThreadMembers.participant, true),
        sql`${messageThreads.lastSeq} > ${messageThreadMembers.readSeq}`,
        threadVisibility(scope),
      ),
    );
  return { threads: row?.n ?? 0 };
}

export async function getThread(db: TExecutor, scope: TScope, threadId: string) {
  // One round trip's wait: the thread (under the caller's rule) with its client and the caller's read
  // mark, beside its people (read by id, and thrown away when the thread is not the caller's).
  const [[row], people] = await Promise.all([
    db
      .select({
        thread: messageThreads,
        client: { id: clients.id, name: clients.name, code: clients.code },
        myReadSeq: messageThreadMembers.readSeq,
      })
      .from(messageThreads)
      .leftJoin(
        clients,
        and(eq(clients.orgId, messageThreads.orgId), eq(clients.id, messageThreads.clientId)),
      )
      .leftJoin(messageThreadMembers, myRow(scope))
      .where(
        and(eq(messageThreads.orgId, scope.orgId), eq(messageThreads.id, threadId), threadVisibility(scope)),
      )
      .limit(1),
    threadPeople(db, { orgId: scope.orgId, id: threadId }),
  ]);
  if (!row) throw threadNotFound();
  const { thread, client } = row;
  return {
    id: thread.id,
    subject: thread.subject,
    status: thread.status,
    assigneeId: thread.assigneeId,
    client: client ?? null,
    lastSeq: thread.lastSeq,
    myReadSeq: row.myReadSeq ?? 0,
    createdAt: thread.createdAt,
    people,
  };
}
export type TThreadDetail = Awaited<ReturnType<typeof getThread>>;

/** A new thread with its first message, from a member of the firm. */
export async function createThread(db: TDb, scope: TScope, input: TThreadCreate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    if (client.archivedAt) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This client is archived' });
    const people = await checkClientUsers(tx, scope.orgId, client.id, input.clientUserIds);
    const staff = await checkMembers(tx, scope.orgId, input.memberIds);
    if (input.assigneeId) await checkMembers(tx, scope.orgId, [input.assigneeId]);
    const [thread] = await tx
      .insert(messageThreads)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        subject: input.subject,
        assigneeId: input.assigneeId,
        createdByMemberId: scope.memberId,
      })
      .returning();
    if (!thread) throw new Error('thread not created');
    await addMembers(
      tx,
      thread,
      input.memberIds.filter((id) => id !== scope.memberId),
    );
    await addClientUsers(tx, thread, input.clientUserIds);
    // Files come with replies: an upload needs its thread.
    const { message } = await appendMessage(
      tx,
      thread,
      { kind: 'member', memberId: scope.memberId },
      { body: input.body, internal: false, mentions: [], attachmentIds: [], source: 'app' },
    );
    await audit(tx, actorOf(scope, meta), {
      action: 'message.thread.create',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Started the conversation “${thread.subject}” with ${client.name}${
        people.length ? ` (${people.map((p) => p.name).join(', ')})` : ''
      }${staff.length ? `, with ${staff.map((m) => m.name).join(', ')}` : ''}`,
    });
    await afterMessage(
      tx,
      { ...thread, lastSeq: message.seq },
      message,
      { kind: 'member', memberId: scope.memberId },
      [],
    );
    return { id: thread.id, clientId: client.id };
  });
}

/** Open or close, assign (or unassign), or rename: each change logged, the new assignee told. */
export async function updateThread(db: TDb, scope: TScope, input: TThreadUpdate, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const thread = await visibleThread(tx, scope, input.threadId, true);
    if (input.assigneeId) await checkMembers(tx, scope.orgId, [input.assigneeId]);
    const next = {
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
    };
    const changes = diff(thread, next);
    if (!changes) return { id: thread.id, changed: false };
    await tx
      .update(messageThreads)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(messageThreads.orgId, scope.orgId), eq(messageThreads.id, thread.id)));
    const what = [
      changes.status ? (next.status === 'closed' ? 'closed' : 'reopened') : null,
      changes.assigneeId ? (next.assigneeId ? 'assigned' : 'unassigned') : null,
      changes.subject ? 'renamed' : null,
    ].filter(Boolean);
    let assigneeName = '';
    if (changes.assigneeId && next.assigneeId) {
      const [m] = await checkMembers(tx, scope.orgId, [next.assigneeId]);
      assigneeName = m?.name ?? '';
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'message.thread.update',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `${what.join(', ').replace(/^./, (c) => c.toUpperCase())} the conversation “${
        next.subject ?? thread.subject
      }”${assigneeName ? ` (to ${assigneeName})` : ''}`,
      changes,
    });
    if (changes.assigneeId && next.assigneeId && next.assigneeId !== scope.memberId) {
      await notifyAssigned(tx, scope, { ...thread, ...next }, next.assigneeId);
    }
    return { id: thread.id, changed: true };
  });
}

/** Adds people to a thread (nobody is taken off: what they read stays theirs). */
export async function addPeople(db: TDb, scope: TScope, input: TThreadPeople, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const thread = await visibleThread(tx, scope, input.threadId, true);
    const people = await checkClientUsers(tx, scope.orgId, thread.clientId, input.clientUserIds);
    const staff = await checkMembers(tx, scope.orgId, input.memberIds);
    if (!people.length && !staff.length)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose someone to add' });
    await addMembers(tx, thread, input.memberIds);
    await addClientUsers(tx, thread, input.clientUserIds);
    await audit(tx, actorOf(scope, meta), {
      action: 'message.thread.people',
      recordType: 'messageThread',
      recordId: thread.id,
      summary: `Added ${[...people, ...staff].map((p) => p.name).join(', ')} to the conversation “${thread.subject}”`,
    });
    return { id: thread.id };
  });
}
