import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { taskSettingsOf } from '../../../domain/tasks';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs, taskAssignees, tasks } from '../../db/schema';
import { clientVisibility } from '../clients';

/**
 * "Assigned clients only" for tasks: a limited member sees the tasks of the clients they are on the
 * team of, the firm's internal tasks (no client), and any task they are assigned to or review
 * (being put on a task is itself a grant). Undefined (no condition) for everyone else.
 */
export function taskVisibility(scope: TScope): SQL | undefined {
  const onTeam = clientVisibility(scope, tasks.clientId);
  if (!onTeam) return undefined;
  // Uncorrelated IN lists: PostgreSQL hashes each once per query instead of probing per row.
  return sql`(${tasks.clientId} is null
    or ${onTeam}
    or ${tasks.id} in (select va.task_id from task_assignees va
      where va.org_id = ${scope.orgId} and va.member_id = ${scope.memberId})
    or ${tasks.reviewerId} = ${scope.memberId})`;
}

/** The task row if the caller may see it; NOT_FOUND for another firm's, a missing or a hidden one. */
export async function visibleTask(db: TExecutor, scope: TScope, taskId: string, lock = false) {
  const query = db
    .select()
    .from(tasks)
    .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, taskId), taskVisibility(scope)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: tasks }) : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Task not found' });
  return row;
}

/** The firm's time zone and task settings: "today" and the checklist rule depend on them. */
export async function firmOf(db: TExecutor, orgId: string) {
  const [org] = await db
    .select({ timeZone: orgs.timeZone, settings: orgs.settings })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  if (!org) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
  return { timeZone: org.timeZone, settings: taskSettingsOf(org.settings) };
}

export async function assigneeIdsOf(db: TExecutor, orgId: string, taskId: string) {
  const rows = await db
    .select({ memberId: taskAssignees.memberId })
    .from(taskAssignees)
    .where(and(eq(taskAssignees.orgId, orgId), eq(taskAssignees.taskId, taskId)));
  return rows.map((r) => r.memberId);
}
