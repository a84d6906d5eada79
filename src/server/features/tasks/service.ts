import { TRPCError } from '@trpc/server';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { changedFields } from '../../../domain/budgets';
import type { TStoredStatus } from '../../../domain/status';
import {
  checklistBlocksCompletion,
  completedDateFor,
  type TTaskBulk,
  type TTaskInput,
  type TTaskUpdate,
} from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { taskAssignees, tasks } from '../../db/schema';
import { notify } from '../notifications';
import { levelForBudget } from '../projects';
import { audit, diff } from '../system-log';
import { assigneeIdsOf, firmOf, taskVisibility, visibleTask } from './access';
import { activeMembers, nameOf, placement } from './people';
import { recordStagesDone } from './stage-done';
import { recordStatusChanges } from './status-history';

export const taskLink = (taskId: string) => `/tasks?task=${taskId}`;

function blockedCompletion(
  checklist: readonly { done: boolean }[],
  settings: Parameters<typeof checklistBlocksCompletion>[1],
) {
  const message = checklistBlocksCompletion(checklist, settings);
  if (message) throw new TRPCError({ code: 'BAD_REQUEST', message });
}

async function notifyAssigned(
  tx: TExecutor,
  scope: TScope,
  task: { id: string; title: string },
  memberIds: readonly string[],
) {
  const others = memberIds.filter((id) => id !== scope.memberId);
  if (!others.length) return;
  const actor = await nameOf(tx, scope.orgId, scope.memberId);
  await notify(tx, {
    orgId: scope.orgId,
    memberIds: others,
    kind: 'task.assigned',
    title: `${actor} assigned you “${task.title.slice(0, 150)}”`,
    link: taskLink(task.id),
  });
}

async function notifyReview(
  tx: TExecutor,
  scope: TScope,
  task: { id: string; title: string; reviewerId: string | null },
) {
  if (!task.reviewerId || task.reviewerId === scope.memberId) return;
  const actor = await nameOf(tx, scope.orgId, scope.memberId);
  await notify(tx, {
    orgId: scope.orgId,
    memberIds: [task.reviewerId],
    kind: 'task.review',
    title: `${actor} sent “${task.title.slice(0, 150)}” for your review`,
    link: taskLink(task.id),
  });
}

export async function createTask(
  db: TDb,
  scope: TScope,
  input: TTaskInput,
  meta: TRequestMeta,
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const where = await placement(tx, scope, input);
    await activeMembers(tx, scope.orgId, input.assigneeIds, 'assignees');
    if (input.reviewerId) await activeMembers(tx, scope.orgId, [input.reviewerId], 'reviewer');
    const checklist = input.checklist.map((item) => ({ id: crypto.randomUUID(), ...item }));
    if (input.status === 'COMPLETED') blockedCompletion(checklist, (await firmOf(tx, scope.orgId)).settings);
    const now = new Date();
    const [created] = await tx
      .insert(tasks)
      .values({
        orgId: scope.orgId,
        title: input.title,
        description: input.description,
        clientId: where.clientId,
        projectId: where.projectId,
        status: input.status,
        priority: input.priority,
        dueDate: input.dueDate,
        completedDate: input.status === 'COMPLETED' ? now : null,
        reviewerId: input.reviewerId,
        tags: input.tags,
        checklist,
        forClient: input.forClient,
        budgetMinutes: input.budgetMinutes,
        createdBy: scope.memberId,
      })
      .returning({ id: tasks.id, title: tasks.title, reviewerId: tasks.reviewerId });
    if (!created) throw new Error('task not created');
    // A task begins SCHEDULED at its created_at unless the history says otherwise.
    if (input.status !== 'SCHEDULED')
      await recordStatusChanges(tx, scope, [{ taskId: created.id, from: null, to: input.status }], now);
    if (input.assigneeIds.length) {
      await tx.insert(taskAssignees).values(
        input.assigneeIds.map((memberId) => ({
          orgId: scope.orgId,
          taskId: created.id,
          memberId,
          dueDate: input.dueDate,
        })),
      );
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'task.create',
      recordType: 'task',
      recordId: created.id,
      summary: `Created task “${created.title}”${where.client ? ` for ${where.client.name}` : ''}`,
    });
    await notifyAssigned(tx, scope, created, input.assigneeIds);
    if (input.status === 'IN_REVIEW') await notifyReview(tx, scope, created);
    return { id: created.id };
  });
}

export async function updateTask(
  db: TDb,
  scope: TScope,
  { taskId, patch }: TTaskUpdate,
  meta: TRequestMeta,
): Promise<{ id: string; changed: boolean }> {
  return db.transaction(async (tx) => {
    const before = await visibleTask(tx, scope, taskId, true);
    const next: Partial<typeof tasks.$inferInsert> = {};
    if (patch.title !== undefined) next.title = patch.title;
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.priority !== undefined) next.priority = patch.priority;
    if (patch.dueDate !== undefined) next.dueDate = patch.dueDate;
    if (patch.tags !== undefined) next.tags = patch.tags;
    if (patch.forClient !== undefined) next.forClient = patch.forClient;
    if (patch.budgetMinutes !== undefined) next.budgetMinutes = patch.budgetMinutes;
    if (patch.reviewerId !== undefined) {
      if (patch.reviewerId) await activeMembers(tx, scope.orgId, [patch.reviewerId], 'reviewer');
      next.reviewerId = patch.reviewerId;
    }
    if (patch.clientId !== undefined || patch.projectId !== undefined || patch.forClient !== undefined) {
      const clientId = patch.clientId !== undefined ? patch.clientId : before.clientId;
      // A new client takes the task out of a project of another client.
      const projectId =
        patch.projectId !== undefined
          ? patch.projectId
          : clientId === before.clientId
            ? before.projectId
            : null;
      const where = await placement(tx, scope, {
        clientId,
        projectId,
        forClient: patch.forClient ?? before.forClient,
      });
      next.clientId = where.clientId;
      next.projectId = where.projectId;
    }
    const changes = diff(before as unknown as Record<string, unknown>, next as Record<string, unknown>) ?? {};

    let added: string[] = [];
    if (patch.assigneeIds !== undefined) {
      const current = await assigneeIdsOf(tx, scope.orgId, taskId);
      added = patch.assigneeIds.filter((id) => !current.includes(id));
      const removed = current.filter((id) => !patch.assigneeIds?.includes(id));
      await activeMembers(tx, scope.orgId, added, 'assignees');
      if (removed.length) {
        await tx
          .delete(taskAssignees)
          .where(
            and(
              eq(taskAssignees.orgId, scope.orgId),
              eq(taskAssignees.taskId, taskId),
              inArray(taskAssignees.memberId, removed),
            ),
          );
      }
      if (added.length) {
        await tx.insert(taskAssignees).values(
          added.map((memberId) => ({
            orgId: scope.orgId,
            taskId,
            memberId,
            dueDate: next.dueDate !== undefined ? next.dueDate : before.dueDate,
          })),
        );
      }
      if (added.length || removed.length) changes.assignees = { from: current, to: patch.assigneeIds };
    }
    if (Object.keys(changes).length === 0) return { id: taskId, changed: false };
    // A new budget starts from what the logged time has reached, so only a later crossing notifies.
    if (changes.budgetMinutes)
      next.budgetNotified = await levelForBudget(tx, scope.orgId, { taskId }, next.budgetMinutes ?? null);
    if (Object.keys(next).length) {
      await tx
        .update(tasks)
        .set({ ...next, updatedAt: new Date() })
        .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, taskId)));
    }
    // The assignees' copy of the due date (and status) follows the task by trigger (migration 0030).
    const title = next.title ?? before.title;
    await audit(tx, actorOf(scope, meta), {
      action: 'task.update',
      recordType: 'task',
      recordId: taskId,
      summary: `Updated task “${title}”: ${changedFields(changes)}`,
      changes,
    });
    await notifyAssigned(tx, scope, { id: taskId, title }, added);
    return { id: taskId, changed: true };
  });
}

export async function setTaskStatus(
  db: TDb,
  scope: TScope,
  input: { taskId: string; status: TStoredStatus },
  meta: TRequestMeta,
): Promise<{ id: string; status: TStoredStatus; completedDate: Date | null }> {
  return db.transaction(async (tx) => {
    const before = await visibleTask(tx, scope, input.taskId, true);
    if (before.status === input.status) {
      return { id: before.id, status: before.status, completedDate: before.completedDate };
    }
    if (input.status === 'COMPLETED')
      blockedCompletion(before.checklist, (await firmOf(tx, scope.orgId)).settings);
    const completedDate = completedDateFor(before, input.status, new Date());
    await tx
      .update(tasks)
      .set({ status: input.status, completedDate, updatedAt: new Date() })
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, before.id)));
    await recordStatusChanges(tx, scope, [{ taskId: before.id, from: before.status, to: input.status }]);
    // recordStatusChanges recorded the automations' events (changed, completed).
    if (input.status === 'COMPLETED') await recordStagesDone(tx, scope.orgId, [before]);
    await audit(tx, actorOf(scope, meta), {
      action: 'task.status',
      recordType: 'task',
      recordId: before.id,
      summary: `Moved task “${before.title}” from ${before.status} to ${input.status}`,
      changes: {
        status: { from: before.status, to: input.status },
        completedDate: { from: before.completedDate, to: completedDate },
      },
    });
    if (input.status === 'IN_REVIEW') await notifyReview(tx, scope, before);
    return { id: before.id, status: input.status, completedDate };
  });
}

export async function deleteTask(db: TDb, scope: TScope, taskId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await visibleTask(tx, scope, taskId, true);
    await tx.delete(tasks).where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, taskId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'task.delete',
      recordType: 'task',
      recordId: taskId,
      summary: `Deleted task “${before.title}”`,
      changes: { title: { from: before.title, to: null }, status: { from: before.status, to: null } },
    });
    return { id: taskId };
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One statement per action over the chosen tasks the caller may see; one audit row with the count. */
export async function bulkTasks(
  db: TDb,
  scope: TScope,
  input: TTaskBulk,
  meta: TRequestMeta,
): Promise<{ affected: number }> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.ids)];
    const visible = and(eq(tasks.orgId, scope.orgId), inArray(tasks.id, ids), taskVisibility(scope));
    const { action } = input;
    let affected = 0;
    let summary: string;
    let changes: Record<string, { from: unknown; to: unknown }>;
    switch (action.kind) {
      case 'setStatus': {
        const rows = await tx
          .select({
            id: tasks.id,
            status: tasks.status,
            checklist: tasks.checklist,
            reviewerId: tasks.reviewerId,
            projectId: tasks.projectId,
            stageId: tasks.stageId,
          })
          .from(tasks)
          .where(and(visible, ne(tasks.status, action.status)))
          .for('update');
        if (action.status === 'COMPLETED') {
          const { settings } = await firmOf(tx, scope.orgId);
          const blocked = rows.filter((r) => checklistBlocksCompletion(r.checklist, settings));
          if (blocked.length) {
            throw new TRPCError({
              code: 'BAD_REQUEST',
              message: `${plural(blocked.length, 'chosen task')} still ${blocked.length === 1 ? 'has' : 'have'} open checklist items: finish them before completing`,
            });
          }
        }
        if (rows.length) {
          await tx
            .update(tasks)
            .set({
              status: action.status,
              completedDate: action.status === 'COMPLETED' ? new Date() : null,
              updatedAt: new Date(),
            })
            .where(
              and(
                eq(tasks.orgId, scope.orgId),
                inArray(
                  tasks.id,
                  rows.map((r) => r.id),
                ),
              ),
            );
          await recordStatusChanges(
            tx,
            scope,
            rows.map((r) => ({ taskId: r.id, from: r.status, to: action.status })),
          );
          if (action.status === 'COMPLETED') await recordStagesDone(tx, scope.orgId, rows);
        }
        affected = rows.length;
        if (action.status === 'IN_REVIEW') {
          // One notification per reviewer, not per task.
          const byReviewer = new Map<string, number>();
          for (const r of rows) {
            if (r.reviewerId && r.reviewerId !== scope.memberId) {
              byReviewer.set(r.reviewerId, (byReviewer.get(r.reviewerId) ?? 0) + 1);
            }
          }
          for (const [reviewerId, n] of byReviewer) {
            await notify(tx, {
              orgId: scope.orgId,
              memberIds: [reviewerId],
              kind: 'task.review',
              title: `${plural(n, 'task')} ready for your review`,
              link: `/tasks?view=all&reviewerId=${reviewerId}&status=IN_REVIEW`,
            });
          }
        }
        summary = `Moved ${plural(affected, 'task')} to ${action.status}`;
        changes = { status: { from: null, to: action.status } };
        break;
      }
      case 'assign': {
        const [member] = await activeMembers(tx, scope.orgId, [action.memberId], 'assignee');
        const inserted = await tx
          .insert(taskAssignees)
          .select(
            tx
              .select({
                orgId: tasks.orgId,
                taskId: tasks.id,
                memberId: sql<string>`${action.memberId}::uuid`.as('member_id'),
                dueDate: tasks.dueDate,
                status: tasks.status,
                completedDate: tasks.completedDate,
              })
              .from(tasks)
              .where(visible),
          )
          .onConflictDoNothing()
          .returning({ taskId: taskAssignees.taskId });
        affected = inserted.length;
        if (affected && action.memberId !== scope.memberId) {
          const actor = await nameOf(tx, scope.orgId, scope.memberId);
          await notify(tx, {
            orgId: scope.orgId,
            memberIds: [action.memberId],
            kind: 'task.assigned',
            title: `${actor} assigned you ${plural(affected, 'task')}`,
            link: '/tasks?view=mine',
          });
        }
        summary = `Assigned ${member?.name} to ${plural(affected, 'task')}`;
        changes = { assignees: { from: null, to: `+${member?.name}` } };
        break;
      }
      case 'unassign': {
        const removed = await tx
          .delete(taskAssignees)
          .where(
            and(
              eq(taskAssignees.orgId, scope.orgId),
              eq(taskAssignees.memberId, action.memberId),
              inArray(taskAssignees.taskId, tx.select({ id: tasks.id }).from(tasks).where(visible)),
            ),
          )
          .returning({ taskId: taskAssignees.taskId });
        affected = removed.length;
        const name = await nameOf(tx, scope.orgId, action.memberId);
        summary = `Removed ${name} from ${plural(affected, 'task')}`;
        changes = { assignees: { from: `-${name}`, to: null } };
        break;
      }
    }
    await audit(tx, actorOf(scope, meta), {
      action: `task.bulk.${action.kind}`,
      recordType: 'task',
      recordId: null,
      summary,
      changes: { ...changes, count: { from: null, to: affected } },
    });
    return { affected };
  });
}
