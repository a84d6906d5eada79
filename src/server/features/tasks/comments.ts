import { and, asc, eq, sql } from 'drizzle-orm';
import { mentionToken, type TCommentAdd } from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientUsers, members, taskComments } from '../../db/schema';
import { memberName } from '../../db/sql';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { visibleTask } from './access';
import { nameOf } from './people';
import { taskLink } from './service';

/** A task's comments, oldest first so the newest sits last, beside the box to reply. */
export async function listComments(db: TExecutor, scope: TScope, taskId: string) {
  await visibleTask(db, scope, taskId);
  return db
    .select({
      id: taskComments.id,
      body: taskComments.body,
      mentions: taskComments.mentions,
      createdAt: taskComments.createdAt,
      authorId: taskComments.authorMemberId,
      // A client's comment from the portal names the client user, marked as the client's.
      authorName: sql<string | null>`coalesce(${memberName}, ${clientUsers.name} || ' (client)')`,
      fromClient: sql<boolean>`(${taskComments.authorClientUserId} is not null)`,
    })
    .from(taskComments)
    .leftJoin(
      members,
      and(eq(members.orgId, taskComments.orgId), eq(members.id, taskComments.authorMemberId)),
    )
    .leftJoin(
      clientUsers,
      and(eq(clientUsers.orgId, taskComments.orgId), eq(clientUsers.id, taskComments.authorClientUserId)),
    )
    .where(and(eq(taskComments.orgId, scope.orgId), eq(taskComments.taskId, taskId)))
    .orderBy(asc(taskComments.createdAt), asc(taskComments.id))
    .limit(500);
}

/**
 * Mentions come from the picker as member ids; only active members of this firm whose @name is
 * still in the text count (a mention deleted while typing notifies nobody).
 */
export async function addComment(
  db: TDb,
  scope: TScope,
  input: TCommentAdd,
  meta: TRequestMeta,
): Promise<{ id: string; mentions: string[] }> {
  return db.transaction(async (tx) => {
    const task = await visibleTask(tx, scope, input.taskId);
    let mentioned: { id: string; name: string }[] = [];
    if (input.mentions.length) {
      const found = await tx
        .select({ id: members.id, name: memberName, status: members.status })
        .from(members)
        .where(eq(members.orgId, scope.orgId));
      const wanted = new Set(input.mentions);
      mentioned = found.filter(
        (m) => wanted.has(m.id) && m.status === 'active' && input.body.includes(mentionToken(m.name)),
      );
    }
    const [comment] = await tx
      .insert(taskComments)
      .values({
        orgId: scope.orgId,
        taskId: task.id,
        authorMemberId: scope.memberId,
        body: input.body,
        mentions: mentioned.map((m) => m.id),
      })
      .returning({ id: taskComments.id });
    if (!comment) throw new Error('comment not created');
    await audit(tx, actorOf(scope, meta), {
      action: 'task.comment.add',
      recordType: 'task',
      recordId: task.id,
      summary: `Commented on “${task.title}”${
        mentioned.length ? ` mentioning ${mentioned.map((m) => m.name).join(', ')}` : ''
      }`,
    });
    const others = mentioned.filter((m) => m.id !== scope.memberId).map((m) => m.id);
    if (others.length) {
      const author = await nameOf(tx, scope.orgId, scope.memberId);
      await notify(tx, {
        orgId: scope.orgId,
        memberIds: others,
        kind: 'task.mentioned',
        title: `${author} mentioned you on “${task.title.slice(0, 150)}”`,
        body: input.body.slice(0, 2000),
        link: taskLink(task.id),
      });
    }
    return { id: comment.id, mentions: mentioned.map((m) => m.id) };
  });
}
