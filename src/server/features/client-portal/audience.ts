import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { TPermission } from '../../../domain/permissions';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientTeam, members, projectMembers, projects, roles, taskAssignees, tasks } from '../../db/schema';

/**
 * Who hears about what a client does in the portal (an upload, a to-do marked done, a comment).
 * Every portal action that notifies asks here, so each one reaches someone: the first of these
 * groups that has an active member of the firm in it.
 *
 *   - The client's team.
 *   - The people on the task, for an action on one (assignees and reviewer). A to-do marked done or
 *     commented on (`taskPeopleFirst`) asks them before the team: they are the ones waiting on it.
 *   - The task's project, when it is in one: its owner and members.
 *   - The firm's admins: active members whose role has `permission` on every client (not limited
 *     to assigned clients), and the owner.
 *
 * Only active members count at each step (notify() skips the others), so a team of disabled
 * members falls through to the next group rather than swallowing the notification.
 */
export async function portalAudience(
  tx: TExecutor,
  access: TPortalClientAccess,
  about: { taskId?: string | null; permission: TPermission; taskPeopleFirst?: boolean },
): Promise<string[]> {
  const { orgId } = access;
  const active = (ids: string[]) => activeOf(tx, orgId, ids);

  const task = about.taskId
    ? (
        await tx
          .select({ id: tasks.id, reviewerId: tasks.reviewerId, projectId: tasks.projectId })
          .from(tasks)
          .where(and(eq(tasks.orgId, orgId), eq(tasks.id, about.taskId)))
          .limit(1)
      )[0]
    : undefined;

  const onTask = async () => {
    if (!task) return [];
    const assignees = await tx
      .select({ memberId: taskAssignees.memberId })
      .from(taskAssignees)
      .where(and(eq(taskAssignees.orgId, orgId), eq(taskAssignees.taskId, task.id)));
    return active([...assignees.map((a) => a.memberId), ...(task.reviewerId ? [task.reviewerId] : [])]);
  };
  const onTeam = async () => {
    const team = await tx
      .select({ memberId: clientTeam.memberId })
      .from(clientTeam)
      .where(and(eq(clientTeam.orgId, orgId), eq(clientTeam.clientId, access.clientId)));
    return active(team.map((r) => r.memberId));
  };
  const onProject = async () => {
    const projectId = task?.projectId;
    if (!projectId) return [];
    const [project] = await tx
      .select({ ownerId: projects.ownerId })
      .from(projects)
      .where(and(eq(projects.orgId, orgId), eq(projects.id, projectId)))
      .limit(1);
    const people = await tx
      .select({ memberId: projectMembers.memberId })
      .from(projectMembers)
      .where(and(eq(projectMembers.orgId, orgId), eq(projectMembers.projectId, projectId)));
    return active([...(project?.ownerId ? [project.ownerId] : []), ...people.map((p) => p.memberId)]);
  };

  for (const group of about.taskPeopleFirst ? [onTask, onTeam, onProject] : [onTeam, onTask, onProject]) {
    const ids = await group();
    if (ids.length) return ids;
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
