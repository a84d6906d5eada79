import { TRPCError } from '@trpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { orgs, projects } from '../../db/schema';
import { clientVisibility } from '../clients';

// The projects feature imports this one (to record its events), so the few project reads automations
// need are here rather than imported back from it.

/** The project (locked) if the caller may see it: this firm's, its client visible; NOT_FOUND otherwise. */
export async function visibleProjectForStage(db: TExecutor, scope: TScope, projectId: string) {
  const [row] = await db
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.orgId, scope.orgId),
        eq(projects.id, projectId),
        clientVisibility(scope, projects.clientId),
      ),
    )
    .limit(1)
    .for('update');
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
  return row;
}

/** The firm's "today" ('YYYY-MM-DD' in its time zone). */
export async function firmDay(db: TExecutor, orgId: string): Promise<string> {
  const [row] = await db
    .select({ today: sql<string>`to_char(now() at time zone ${orgs.timeZone}, 'YYYY-MM-DD')` })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  return row?.today ?? new Date().toISOString().slice(0, 10);
}
