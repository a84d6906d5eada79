import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { TPermission } from '../../../domain/permissions';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientTeam, members, projectMembers, projects, roles, taskAssignees, tasks } from '../../db/schema';

/**
 * Who hears about what a client does in the portal (an upload, a to-do marked done, a comment).
 * Every portal action that notifies asks here, so each one reaches someone: the first of these
 * that has an active member of the firm in it.
 *
 *   1. For an action on a task: the people on it (assignees and reviewer), the ones doing the work.
 *   2. The client's team.
 *   3. For a task in a project: the project's owner and members.
 *   4. The firm's admins: active members whose role has `permission` on every client (not limited to
 *      assigned clients), and the owner.
 *
 * Only active members count at each step (notify() skips the others), so a team of disabled
 * members falls through to the next step rather than swallowing the notification.
 */
export async function portalAudience(
  tx: TExecutor,
  access: TPortalClientAccess,
  about: { taskId?: string | null; permission: TPermission },
): Promise<string[]> {
  const { orgId } = access;
  const active = (ids: string[]) => activeOf(tx, orgId, ids);

  let projectId: string | null = null;
  if (about.taskId) {
    const [task] = await tx
      .select({ reviewerId: tasks.reviewerId, projectId: tasks.projectId })
      .from(tasks)
      .where(and(eq(tasks.orgId, orgId), eq(tasks.id, about.taskId)))
      .limit(1);
    projectId = task?.projectId ?? null;
    const assignees = await tx
      .select({ memberId: taskAssignees.memberId })
      .from(taskAssignees)
      .where(and(eq(taskAssignees.orgId, orgId), eq(taskAssignees.taskId, about.taskId)));
    const onTask = await active([
      ...assignees.map((a) => a.memberId),
      ...(task?.reviewerId ? [task.reviewerId] : []),
    ]);
    if (onTask.length) return onTask;
  }

  const team = await tx
    .select({ memberId: clientTeam.memberId })
    .from(clientTeam)
    .where(and(eq(clientTeam.orgId, orgId), eq(clientTeam.clientId, access.clientId)));
  const onTeam = await active(team.map((r) => r.memberId));
  if (onTeam.length) return onTeam;

  if (projectId) {
    const [project] = await tx
      .select({ ownerId: projects.ownerId })
      .from(projects)
      .where(and(eq(projects.orgId, orgId), eq(projects.id, projectId)))
      .limit(1);
    const people = await tx
      .select({ memberId: projectMembers.memberId })
      .from(projectMembers)
      .where(and(eq(projectMembers.orgId, orgId), eq(projectMembers.projectId, projectId)));
    const onProject = await active([
      ...(project?.ownerId ? [project.ownerId] : []),
      ...people.map((p) => p.memberId),
    ]);
    if (onProject.length) return onProject;
  }

  const admins = await tx
    .select({ memberId: members.id })
    .from(members)
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(
      and(
        eq(members.orgId, orgId),
        eq(members.status, 'active'),
        or(
          eq(members.isOwner, true),
          and(
            sql`${roles.permissions} @> array[${about.permission}]::text[]`,
            eq(roles.assignedClientsOnly, false),
          ),
        ),
      ),
    )
    .orderBy(members.createdAt, members.id)
    .limit(50);
  return admins.map((a) => a.memberId);
}

/** The ids among `ids` of the firm's active members, in the order given, without repeats. */
async function activeOf(tx: TExecutor, orgId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, unique), eq(members.status, 'active')));
  const found = new Set(rows.map((r) => r.id));
  return unique.filter((id) => found.has(id));
}
