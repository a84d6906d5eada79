import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, orgs, projects } from '../../db/schema';
import { clientVisibility } from '../clients';

/** The firm's "today" ('YYYY-MM-DD' in its time zone), which decides what is overdue. */
export async function firmToday(db: TExecutor, orgId: string): Promise<string> {
  const [row] = await db
    .select({ today: sql<string>`to_char(now() at time zone ${orgs.timeZone}, 'YYYY-MM-DD')` })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  return row?.today ?? new Date().toISOString().slice(0, 10);
}

/** OVERDUE as SPEC.md §4 derives it, judged by the firm's today. */
export const overdue = (today: string): SQL =>
  sql`(${projects.status} <> 'COMPLETED' and ${projects.completedDate} is null and ${projects.dueDate} < ${today}::date)`;

/**
 * The project (locked when asked) if the caller may see it: this firm's, and its client visible to
 * an "assigned clients only" role. NOT_FOUND otherwise, the same as a missing one.
 */
export async function visibleProject(db: TExecutor, scope: TScope, projectId: string, lock = false) {
  const query = db
    .select({ project: projects, clientName: clients.name, clientCode: clients.code })
    .from(projects)
    .innerJoin(clients, and(eq(clients.orgId, projects.orgId), eq(clients.id, projects.clientId)))
    .where(
      and(
        eq(projects.orgId, scope.orgId),
        eq(projects.id, projectId),
        clientVisibility(scope, projects.clientId),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update', { of: projects }) : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
  return row;
}
