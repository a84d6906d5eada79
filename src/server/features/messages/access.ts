import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { TPortalClientAccess, TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { messageThreadClientUsers, messageThreads } from '../../db/schema';
import { clientVisibility } from '../clients';

export type TThreadRow = typeof messageThreads.$inferSelect;

export const threadNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Conversation not found' });

/**
 * "Assigned clients only" for messages: a limited member sees the threads of the clients they are on
 * the team of, and a thread they are assigned to or put on (being put on a thread is a grant for that
 * thread, as for tasks). Undefined (no condition) for everyone else.
 */
export function threadVisibility(scope: TScope): SQL | undefined {
  const onTeam = clientVisibility(scope, messageThreads.clientId);
  if (!onTeam) return undefined;
  return sql`(${onTeam}
    or ${messageThreads.assigneeId} = ${scope.memberId}
    or ${messageThreads.id} in (select tm.thread_id from message_thread_members tm
      where tm.org_id = ${scope.orgId} and tm.member_id = ${scope.memberId} and tm.participant))`;
}

/** The thread if the caller may see it; NOT_FOUND for another firm's, a missing or a hidden one. */
export async function visibleThread(db: TExecutor, scope: TScope, threadId: string, lock = false) {
  const query = db
    .select()
    .from(messageThreads)
    .where(
      and(eq(messageThreads.orgId, scope.orgId), eq(messageThreads.id, threadId), threadVisibility(scope)),
    )
    .limit(1);
  const [row] = lock ? await query.for('update', { of: messageThreads }) : await query;
  if (!row) throw threadNotFound();
  return row;
}

/** The portal's rule: a thread of the client the person acts for, that they are on. */
export function portalThreadWhere(access: TPortalClientAccess): SQL {
  return and(
    eq(messageThreads.orgId, access.orgId),
    eq(messageThreads.clientId, access.clientId),
    sql`${messageThreads.id} in (select tc.thread_id from ${messageThreadClientUsers} tc
      where tc.org_id = ${access.orgId} and tc.client_user_id = ${access.clientUserId})`,
  ) as SQL;
}

export async function portalThread(
  db: TExecutor,
  access: TPortalClientAccess,
  threadId: string,
  lock = false,
) {
  const query = db
    .select()
    .from(messageThreads)
    .where(and(portalThreadWhere(access), eq(messageThreads.id, threadId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: messageThreads }) : await query;
  if (!row) throw threadNotFound();
  return row;
}
