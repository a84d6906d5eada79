import { TRPCError } from '@trpc/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { POSITION_STEP, positionBetween, type TTaskReorder } from '../../../domain/tasks';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { tasks } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { audit } from '../system-log';
import { taskVisibility, visibleTask } from './access';

const changed = () =>
  new TRPCError({ code: 'CONFLICT', message: 'The board has changed since it was loaded: please try again' });

/**
 * Moves a card within its board column. The column sends its cards in their new order; the moved
 * card gets a position between its new neighbours, so one row changes. Only when the neighbours tie
 * (cards never reordered all share position 0) are the column's cards renumbered, once.
 */
export async function reorderTask(db: TDb, scope: TScope, input: TTaskReorder, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const task = await visibleTask(tx, scope, input.taskId, true);
    const i = input.order.indexOf(task.id);
    const neighbourIds = [input.order[i - 1], input.order[i + 1]].filter((id): id is string => Boolean(id));
    const neighbours = await tx
      .select({ id: tasks.id, position: tasks.position })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), inArray(tasks.id, neighbourIds), taskVisibility(scope)));
    if (neighbours.length !== neighbourIds.length) throw changed();
    const positionOf = (id: string | undefined) =>
      id ? (neighbours.find((n) => n.id === id)?.position ?? null) : null;
    const prev = positionOf(input.order[i - 1]);
    const next = positionOf(input.order[i + 1]);
    // Strictly between the neighbours' positions sorts between them whatever the ids.
    let position = positionBetween(prev, next);
    let renumbered = 0;
    if (position !== null) {
      await tx
        .update(tasks)
        .set({ position, updatedAt: new Date() })
        .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, task.id)));
    } else {
      const visible = await tx
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.orgId, scope.orgId), inArray(tasks.id, input.order), taskVisibility(scope)));
      if (visible.length !== input.order.length) throw changed();
      const ids = `{${input.order.join(',')}}`;
      const result = await tx.execute(sql`
        update ${tasks} set position = o.n * ${POSITION_STEP}::float8, updated_at = now()
        from unnest(${ids}::uuid[]) with ordinality as o(id, n)
        where ${tasks.orgId} = ${scope.orgId} and ${tasks.id} = o.id
        returning ${tasks.id}`);
      renumbered = rowsOf(result).length;
      position = (i + 1) * POSITION_STEP;
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'task.reorder',
      recordType: 'task',
      recordId: task.id,
      summary: `Moved “${task.title}” to place ${i + 1} of its board column${
        renumbered ? ` (the column's ${renumbered} cards renumbered)` : ''
      }`,
      changes: { position: { from: task.position, to: position } },
    });
    return { id: task.id, position };
  });
}
