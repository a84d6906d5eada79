import { and, asc, eq } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, members, projects, reminderMembers, tasks } from '../../db/schema';
import { memberName } from '../../db/sql';
import { visibleReminder } from './access';

export async function membersOf(db: TExecutor, orgId: string, reminderId: string) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(reminderMembers)
    .innerJoin(
      members,
      and(eq(members.orgId, reminderMembers.orgId), eq(members.id, reminderMembers.memberId)),
    )
    .where(and(eq(reminderMembers.orgId, orgId), eq(reminderMembers.reminderId, reminderId)))
    .orderBy(asc(members.firstName), asc(members.lastName));
}

export async function getReminder(db: TExecutor, scope: TScope, id: string) {
  const r = await visibleReminder(db, scope, id);
  const [people, [client], [project], [task]] = await Promise.all([
    membersOf(db, scope.orgId, id),
    r.clientId
      ? db
          .select({ id: clients.id, name: clients.name, email: clients.email })
          .from(clients)
          .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, r.clientId)))
      : Promise.resolve([]),
    r.projectId
      ? db
          .select({ id: projects.id, name: projects.name })
          .from(projects)
          .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, r.projectId)))
      : Promise.resolve([]),
    r.taskId
      ? db
          .select({ id: tasks.id, title: tasks.title })
          .from(tasks)
          .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, r.taskId)))
      : Promise.resolve([]),
  ]);
  return {
    ...r,
    members: people,
    client: client ?? null,
    project: project ?? null,
    task: task ?? null,
  };
}
export type TReminderDetail = Awaited<ReturnType<typeof getReminder>>;
