import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { MAX_CHECKLIST } from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { type TChecklistItem, tasks } from '../../db/schema';
import { audit } from '../system-log';
import { visibleTask } from './access';

type TEdit =
  | { kind: 'add'; text: string }
  | { kind: 'toggle'; itemId: string; done: boolean }
  | { kind: 'remove'; itemId: string };

/** Checklist edits rewrite the task's one jsonb array under a row lock, so two edits never lose one. */
export async function editChecklist(
  db: TDb,
  scope: TScope,
  taskId: string,
  edit: TEdit,
  meta: TRequestMeta,
): Promise<{ checklist: TChecklistItem[] }> {
  return db.transaction(async (tx) => {
    const task = await visibleTask(tx, scope, taskId, true);
    const items = task.checklist;
    let next: TChecklistItem[];
    let summary: string;
    if (edit.kind === 'add') {
      if (items.length >= MAX_CHECKLIST) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `A checklist holds at most ${MAX_CHECKLIST} items`,
        });
      }
      next = [...items, { id: crypto.randomUUID(), text: edit.text, done: false }];
      summary = `Added “${edit.text}” to the checklist of “${task.title}”`;
    } else {
      const item = items.find((i) => i.id === edit.itemId);
      if (!item) throw new TRPCError({ code: 'NOT_FOUND', message: 'Checklist item not found' });
      if (edit.kind === 'toggle') {
        if (item.done === edit.done) return { checklist: items };
        next = items.map((i) => (i.id === item.id ? { ...i, done: edit.done } : i));
        summary = `${edit.done ? 'Ticked' : 'Unticked'} “${item.text}” on “${task.title}”`;
      } else {
        next = items.filter((i) => i.id !== item.id);
        summary = `Removed “${item.text}” from the checklist of “${task.title}”`;
      }
    }
    await tx
      .update(tasks)
      .set({ checklist: next, updatedAt: new Date() })
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, taskId)));
    await audit(tx, actorOf(scope, meta), {
      action: `task.checklist.${edit.kind}`,
      recordType: 'task',
      recordId: taskId,
      summary,
      changes: { checklist: { from: items, to: next } },
    });
    return { checklist: next };
  });
}
