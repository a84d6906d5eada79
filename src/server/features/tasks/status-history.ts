import { and, eq, inArray } from 'drizzle-orm';
import type { TStoredStatus } from '../../../domain/status';
import type { TExecutor } from '../../db/client';
import { taskStatusChanges, tasks } from '../../db/schema';
import { emitAutomationEvents } from '../../events';
import { emitWebhookEvents } from '../webhooks';

type TTaskRef = { id: string; title: string; clientId: string | null; projectId: string | null };

/** Who made the change: a member, a client user in the portal, or nobody (the product's own jobs). */
export type TStatusActor = { orgId: string; memberId?: string | null; clientUserId?: string | null };

/**
 * The one place a task's status change is recorded. Every path that sets a task's status (create,
 * the drawer and board, bulk and the row menu, the portal's "done") calls it inside its own
 * transaction, so the history and the status never disagree. One INSERT for any number of tasks.
 */
export async function recordStatusChanges(
  tx: TExecutor,
  actor: TStatusActor,
  changes: ReadonlyArray<{ taskId: string; from: TStoredStatus | null; to: TStoredStatus }>,
  at: Date = new Date(),
): Promise<void> {
  const moved = changes.filter((c) => c.from !== c.to);
  if (!moved.length) return;
  await tx.insert(taskStatusChanges).values(
    moved.map((c) => ({
      orgId: actor.orgId,
      taskId: c.taskId,
      fromStatus: c.from,
      toStatus: c.to,
      memberId: actor.memberId ?? null,
      clientUserId: actor.clientUserId ?? null,
      at,
    })),
  );
  let read: Promise<Map<string, TTaskRef>> | null = null;
  const taskRefs = (): Promise<Map<string, TTaskRef>> => {
    read ??= tx
      .select({ id: tasks.id, title: tasks.title, clientId: tasks.clientId, projectId: tasks.projectId })
      .from(tasks)
      .where(
        and(
          eq(tasks.orgId, actor.orgId),
          inArray(
            tasks.id,
            moved.map((c) => c.taskId),
          ),
        ),
      )
      .then((rows) => new Map(rows.map((t) => [t.id, t])));
    return read;
  };
  // Every change of an existing task's status, whoever made it, is an event for the firm's
  // automations ("a task changes status", and "a task is completed"): recorded here, so bulk, the
  // portal and a request completing its task start the same rules as the drawer. A task created
  // with a status has not changed one.
  const changed = moved.filter((c) => c.from !== null);
  if (changed.length) {
    const byId = await taskRefs();
    await emitAutomationEvents(
      tx,
      actor.orgId,
      changed.flatMap((change) => {
        const task = byId.get(change.taskId);
        const event = {
          projectId: task?.projectId ?? null,
          clientId: task?.clientId ?? null,
          data: { taskId: change.taskId, title: task?.title ?? null, from: change.from, to: change.to },
        };
        return [
          { kind: 'task.status_changed' as const, ...event },
          ...(change.to === 'COMPLETED' ? [{ kind: 'task.completed' as const, ...event }] : []),
        ];
      }),
    );
  }
  // Every status change, whoever made it (staff, bulk, the portal, the API), is an event for the
  // firm's webhooks: one place, so no door forgets it.
  await emitWebhookEvents(tx, actor.orgId, ['task.status_changed', 'task.completed'], async () => {
    const byId = await taskRefs();
    return moved.flatMap((change) => {
      const data = {
        ...byId.get(change.taskId),
        id: change.taskId,
        status: change.to,
        previousStatus: change.from,
      };
      return [
        { type: 'task.status_changed', data },
        ...(change.to === 'COMPLETED' ? [{ type: 'task.completed', data }] : []),
      ];
    });
  });
}
