import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { members, projectMembers } from '../../db/schema';
import { notify } from '../notifications';
import { audit } from '../system-log';
import { visibleProject } from './access';

export async function activeMembers(tx: TExecutor, orgId: string, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (!unique.length) return [];
  const found = await tx
    .select({ id: members.id, roleId: members.roleId })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, unique), eq(members.status, 'active')));
  if (found.length !== unique.length) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'memberIds: choose active members of your firm' });
  }
  return found;
}

export async function addProjectMember(
  db: TDb,
  scope: TScope,
  input: { projectId: string; memberId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, input.projectId, true);
    await activeMembers(tx, scope.orgId, [input.memberId]);
    const added = await tx
      .insert(projectMembers)
      .values({ orgId: scope.orgId, projectId: project.id, memberId: input.memberId })
      .onConflictDoNothing()
      .returning({ memberId: projectMembers.memberId });
    if (!added.length) return { id: project.id };
    await audit(tx, actorOf(scope, meta), {
      action: 'project.member.add',
      recordType: 'project',
      recordId: project.id,
      summary: `Added a member to ${project.name}`,
      changes: { memberId: { from: null, to: input.memberId } },
    });
    if (input.memberId !== scope.memberId) {
      await notify(tx, {
        orgId: scope.orgId,
        memberIds: [input.memberId],
        kind: 'task.assigned',
        title: `You are on the project ${project.name}`,
        link: `/projects/${project.id}`,
      });
    }
    return { id: project.id };
  });
}

export async function removeProjectMember(
  db: TDb,
  scope: TScope,
  input: { projectId: string; memberId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { project } = await visibleProject(tx, scope, input.projectId, true);
    if (project.ownerId === input.memberId) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'The owner stays on the project: choose another owner first',
      });
    }
    const removed = await tx
      .delete(projectMembers)
      .where(
        and(
          eq(projectMembers.orgId, scope.orgId),
          eq(projectMembers.projectId, project.id),
          eq(projectMembers.memberId, input.memberId),
        ),
      )
      .returning({ memberId: projectMembers.memberId });
    if (!removed.length) return { id: project.id };
    await audit(tx, actorOf(scope, meta), {
      action: 'project.member.remove',
      recordType: 'project',
      recordId: project.id,
      summary: `Removed a member from ${project.name}`,
      changes: { memberId: { from: input.memberId, to: null } },
    });
    return { id: project.id };
  });
}
