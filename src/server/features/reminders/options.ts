import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, members, projects, tasks } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';

/** Pickers for the form: clients the member may see, their projects and tasks, active members. */
export async function clientOptions(db: TExecutor, scope: TScope, search?: string) {
  const where: (SQL | undefined)[] = [eq(clients.orgId, scope.orgId), isNull(clients.archivedAt)];
  where.push(clientVisibility(scope));
  if (search) where.push(sql`${clients.searchText} ilike ${escapeLike(search.toLowerCase())}`);
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code, email: clients.email })
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.name))
    .limit(20);
}

export async function linkOptions(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  const [ps, ts] = await Promise.all([
    db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(
        and(eq(projects.orgId, scope.orgId), eq(projects.clientId, clientId), isNull(projects.archivedAt)),
      )
      .orderBy(desc(projects.dueDate))
      .limit(50),
    db
      .select({ id: tasks.id, title: tasks.title, projectId: tasks.projectId })
      .from(tasks)
      .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.clientId, clientId)))
      .orderBy(desc(tasks.dueDate))
      .limit(100),
  ]);
  return { projects: ps, tasks: ts };
}

export async function memberOptions(db: TExecutor, scope: TScope) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
    .orderBy(asc(members.firstName), asc(members.lastName))
    .limit(500);
}
