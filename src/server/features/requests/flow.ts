import { TRPCError } from '@trpc/server';
import { and, eq, ne } from 'drizzle-orm';
import type { TActor, TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientUserClients, clientUsers, projects, requests, tasks } from '../../db/schema';
import { clientVisibility } from '../clients';
import { audit } from '../system-log';
import { recordStatusChanges } from '../tasks';
import type { TRequestRow } from './access';

// A request in the flow of work (issue 36): the project it is for, and the client's portal to-do
// that stands for it in that project. The to-do is made when a project's request is sent and is
// completed with the request, so the project's tasks, the portal's to-dos and the request agree.

/**
 * The project a request is sent for: this firm's, visible to the caller, and the request's client's.
 * Another firm's or a hidden one answers NOT_FOUND, like a missing one.
 */
export async function projectOfClient(tx: TExecutor, scope: TScope, projectId: string, clientId: string) {
  const [project] = await tx
    .select({ id: projects.id, name: projects.name, clientId: projects.clientId })
    .from(projects)
    .where(
      and(
        eq(projects.orgId, scope.orgId),
        eq(projects.id, projectId),
        clientVisibility(scope, projects.clientId),
      ),
    )
    .limit(1);
  if (!project) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
  if (project.clientId !== clientId) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This project is for another client' });
  }
  return project;
}

/** The client's portal users a request can go to (not disabled), by name. */
export async function portalUsersOf(tx: TExecutor, orgId: string, clientId: string) {
  return tx
    .select({ id: clientUsers.id, name: clientUsers.name, email: clientUsers.email })
    .from(clientUserClients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserClients.orgId), eq(clientUsers.id, clientUserClients.clientUserId)),
    )
    .where(
      and(
        eq(clientUserClients.orgId, orgId),
        eq(clientUserClients.clientId, clientId),
        ne(clientUsers.status, 'disabled'),
      ),
    )
    .orderBy(clientUsers.name)
    .limit(100);
}

type TFlowActor = { orgId: string; memberId: string | null };
const actorFor = (actor: TFlowActor): TActor =>
  actor.memberId
    ? { kind: 'member', orgId: actor.orgId, memberId: actor.memberId }
    : { kind: 'system', orgId: actor.orgId };

/**
 * The client's portal to-do for a sent project request (once): in the request's project, due when
 * the request is, pointing at the request in the portal.
 */
export async function linkPortalTask(tx: TExecutor, actor: TFlowActor, request: TRequestRow) {
  if (!request.projectId || request.taskId) return null;
  const [task] = await tx
    .insert(tasks)
    .values({
      orgId: request.orgId,
      projectId: request.projectId,
      clientId: request.clientId,
      title: request.title,
      description: `Answer the request “${request.title}” under Requests in the portal, item by item. It is done when the firm completes the request.`,
      dueDate: request.dueDate,
      forClient: true,
      createdBy: actor.memberId,
    })
    .returning({ id: tasks.id });
  if (!task) throw new Error('task not created');
  await tx
    .update(requests)
    .set({ taskId: task.id })
    .where(and(eq(requests.orgId, request.orgId), eq(requests.id, request.id)));
  await audit(tx, actorFor(actor), {
    action: 'task.create',
    recordType: 'task',
    recordId: task.id,
    summary: `Created the client’s to-do “${request.title}” for the request`,
  });
  return task.id;
}

/** Completes the request's portal to-do, when it has one still open. */
export async function completeLinkedTask(tx: TExecutor, actor: TFlowActor, request: TRequestRow) {
  if (!request.taskId) return;
  const [task] = await tx
    .select({ id: tasks.id, status: tasks.status, title: tasks.title })
    .from(tasks)
    .where(and(eq(tasks.orgId, request.orgId), eq(tasks.id, request.taskId)))
    .for('update');
  if (!task || task.status === 'COMPLETED') return;
  const now = new Date();
  await tx
    .update(tasks)
    .set({ status: 'COMPLETED', completedDate: now })
    .where(and(eq(tasks.orgId, request.orgId), eq(tasks.id, task.id)));
  await recordStatusChanges(
    tx,
    { orgId: request.orgId, memberId: actor.memberId },
    [{ taskId: task.id, from: task.status, to: 'COMPLETED' }],
    now,
  );
  await audit(tx, actorFor(actor), {
    action: 'task.complete',
    recordType: 'task',
    recordId: task.id,
    summary: `Completed the client’s to-do “${task.title}” with its request`,
    changes: { status: { from: task.status, to: 'COMPLETED' } },
  });
}
