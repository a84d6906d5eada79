import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TPortalComment, ZPortalTaskList } from '../../../domain/client-portal';
import { portalActorOf, type TPortalClientAccess, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import {
  clientUsers,
  documents,
  members,
  projects,
  taskAttachments,
  taskComments,
  tasks,
} from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { recordStagesDone, recordStatusChanges } from '../tasks';
import { portalTask, visibleDocument, whoActs } from './access';
import { portalAudience } from './audience';

// The client's own tasks (forClient) as the portal shows them. Only what the client needs leaves
// the server: title, instructions, dates, status, tags, the project's name, the conversation and
// the shared attachments; never the checklist, assignees, reviewer or priority.

const clientTasks = (access: TPortalClientAccess) =>
  and(eq(tasks.orgId, access.orgId), eq(tasks.clientId, access.clientId), eq(tasks.forClient, true));

const taskColumns = {
  id: tasks.id,
  title: tasks.title,
  status: tasks.status,
  dueDate: tasks.dueDate,
  completedDate: tasks.completedDate,
  tags: tasks.tags,
  projectName: projects.name,
};

/** A page of the client's open or completed tasks (optionally with one tag), and every tag used. */
export async function listPortalTasks(
  db: TExecutor,
  access: TPortalClientAccess,
  input: z.output<typeof ZPortalTaskList>,
) {
  const filters: (SQL | undefined)[] = [
    clientTasks(access),
    input.view === 'open' ? ne(tasks.status, 'COMPLETED') : eq(tasks.status, 'COMPLETED'),
  ];
  if (input.tag) filters.push(sql`${tasks.tags} @> array[${input.tag}]::text[]`);
  const where = and(...filters);
  const order =
    input.view === 'open'
      ? [sql`${tasks.dueDate} asc nulls last`, asc(tasks.id)]
      : [sql`${tasks.completedDate} desc nulls last`, desc(tasks.id)];
  const [rows, [total], tags] = await Promise.all([
    db
      .select(taskColumns)
      .from(tasks)
      .leftJoin(projects, and(eq(projects.orgId, tasks.orgId), eq(projects.id, tasks.projectId)))
      .where(where)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(tasks).where(where),
    portalTaskTags(db, access),
  ]);
  return { rows, total: total?.n ?? 0, page: input.page, pageSize: input.pageSize, tags };
}

async function portalTaskTags(db: TExecutor, access: TPortalClientAccess) {
  const result = await db.execute(sql`
    select distinct tag from ${tasks}, unnest(${tasks.tags}) as tag
    where ${tasks.orgId} = ${access.orgId} and ${tasks.clientId} = ${access.clientId}
      and ${tasks.forClient} = true
    order by tag limit 50`);
  return rowsOf<{ tag: string }>(result).map((r) => r.tag);
}

/** The client's open tasks, soonest due first (the home screen). */
export async function openPortalTasks(db: TExecutor, access: TPortalClientAccess, limit = 10) {
  return db
    .select(taskColumns)
    .from(tasks)
    .leftJoin(projects, and(eq(projects.orgId, tasks.orgId), eq(projects.id, tasks.projectId)))
    .where(and(clientTasks(access), ne(tasks.status, 'COMPLETED')))
    .orderBy(sql`${tasks.dueDate} asc nulls last`, asc(tasks.id))
    .limit(limit);
}

const staffName = sql<string | null>`nullif(trim(${members.firstName} || ' ' || ${members.lastName}), '')`;

/**
 * One task with its conversation and shared attachments. Staff comments on the client's tasks are
 * part of the conversation with the client (as in TaxDome), shown with the member's name only;
 * comments on internal tasks never reach here because internal tasks do not.
 */
export async function portalTaskDetail(db: TExecutor, access: TPortalClientAccess, taskId: string) {
  const task = await portalTask(db, access, taskId);
  const [project, comments, attachments] = await Promise.all([
    task.projectId
      ? db
          .select({ name: projects.name })
          .from(projects)
          .where(and(eq(projects.orgId, access.orgId), eq(projects.id, task.projectId)))
          .limit(1)
      : Promise.resolve([]),
    db
      .select({
        id: taskComments.id,
        body: taskComments.body,
        createdAt: taskComments.createdAt,
        clientUserId: taskComments.authorClientUserId,
        memberName: staffName,
        clientUserName: clientUsers.name,
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
      .where(and(eq(taskComments.orgId, access.orgId), eq(taskComments.taskId, task.id)))
      .orderBy(asc(taskComments.createdAt), asc(taskComments.id))
      .limit(500),
    db
      .select({
        id: documents.id,
        name: documents.name,
        size: documents.size,
        contentType: documents.contentType,
        attachedAt: taskAttachments.createdAt,
      })
      .from(taskAttachments)
      .innerJoin(
        documents,
        and(eq(documents.orgId, taskAttachments.orgId), eq(documents.id, taskAttachments.documentId)),
      )
      .where(
        and(
          eq(taskAttachments.orgId, access.orgId),
          eq(taskAttachments.taskId, task.id),
          visibleDocument(access),
        ),
      )
      .orderBy(asc(taskAttachments.createdAt), asc(documents.id))
      .limit(200),
  ]);
  return {
    id: task.id,
    title: task.title,
    description: task.description,
    status: task.status,
    dueDate: task.dueDate,
    completedDate: task.completedDate,
    tags: task.tags,
    projectName: project[0]?.name ?? null,
    comments: comments.map((c) => ({
      id: c.id,
      body: c.body,
      createdAt: c.createdAt,
      fromClient: c.clientUserId !== null,
      mine: c.clientUserId === access.clientUserId,
      authorName:
        (c.clientUserId ? c.clientUserName : c.memberName) ?? (c.clientUserId ? 'Client' : 'The firm'),
    })),
    attachments,
  };
}

const taskLink = (taskId: string) => `/tasks?task=${taskId}`;

/** The client marks the task done: COMPLETED with today's completion date (done twice is done once). */
export async function completePortalTask(
  db: TDb,
  access: TPortalClientAccess,
  taskId: string,
  meta: TRequestMeta,
): Promise<{ id: string; status: 'COMPLETED'; completedDate: Date }> {
  return db.transaction(async (tx) => {
    const before = await portalTask(tx, access, taskId, true);
    if (before.status === 'COMPLETED' && before.completedDate) {
      return { id: before.id, status: 'COMPLETED', completedDate: before.completedDate };
    }
    // The firm's "checklist before completion" rule is about the staff's own steps, which the
    // client never sees; the client's "done" is theirs to give.
    const completedDate = new Date();
    await tx
      .update(tasks)
      .set({ status: 'COMPLETED', completedDate, updatedAt: completedDate })
      .where(and(eq(tasks.orgId, access.orgId), eq(tasks.id, before.id)));
    await recordStatusChanges(
      tx,
      { orgId: access.orgId, clientUserId: access.clientUserId },
      [{ taskId: before.id, from: before.status, to: 'COMPLETED' }],
      completedDate,
    );
    await recordStagesDone(tx, access.orgId, [before]);
    const who = await whoActs(tx, access);
    await audit(tx, portalActorOf(access, meta), {
      action: 'task.status',
      recordType: 'task',
      recordId: before.id,
      summary: `${who.userName} (client portal) marked the task “${before.title}” done`,
      changes: {
        status: { from: before.status, to: 'COMPLETED' },
        completedDate: { from: before.completedDate, to: completedDate },
      },
    });
    await notify(tx, {
      orgId: access.orgId,
      memberIds: await portalAudience(tx, access, {
        taskId: before.id,
        permission: 'tasks.edit',
        taskPeopleFirst: true,
      }),
      kind: 'task.client_update',
      title: `${who.userName} (${who.clientName.slice(0, 60)}) marked “${before.title.slice(0, 120)}” done`,
      link: taskLink(before.id),
    });
    return { id: before.id, status: 'COMPLETED', completedDate };
  });
}

export async function commentOnPortalTask(
  db: TDb,
  access: TPortalClientAccess,
  input: TPortalComment,
  meta: TRequestMeta,
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const task = await portalTask(tx, access, input.taskId);
    const [comment] = await tx
      .insert(taskComments)
      .values({
        orgId: access.orgId,
        taskId: task.id,
        authorClientUserId: access.clientUserId,
        body: input.body,
      })
      .returning({ id: taskComments.id });
    if (!comment) throw new Error('comment not created');
    const who = await whoActs(tx, access);
    await audit(tx, portalActorOf(access, meta), {
      action: 'task.comment.add',
      recordType: 'task',
      recordId: task.id,
      summary: `${who.userName} (client portal) commented on “${task.title}”`,
    });
    await notify(tx, {
      orgId: access.orgId,
      memberIds: await portalAudience(tx, access, {
        taskId: task.id,
        permission: 'tasks.edit',
        taskPeopleFirst: true,
      }),
      kind: 'task.client_update',
      title: `${who.userName} (${who.clientName.slice(0, 60)}) commented on “${task.title.slice(0, 120)}”`,
      body: input.body.slice(0, 2000),
      link: taskLink(task.id),
    });
    return { id: comment.id };
  });
}
