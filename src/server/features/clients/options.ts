import { and, asc, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientGroups, clients, members } from '../../db/schema';
import { memberName, rowsOf } from '../../db/sql';

/** The firm's active members, for the team and bulk-assign pickers. */
export async function assignableMembers(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
    .orderBy(asc(members.firstName), asc(members.lastName))
    .limit(500);
}

/** The firm's groups for the filter and pickers (the groups screen belongs to the catalogue helper). */
export async function groupOptions(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  return db
    .select({ id: clientGroups.id, name: clientGroups.name })
    .from(clientGroups)
    .where(eq(clientGroups.orgId, scope.orgId))
    .orderBy(asc(clientGroups.name))
    .limit(1000);
}

/** The firm's tags in use, for the tag filter and bulk tagging. */
export async function tagOptions(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  const rows = await db.execute<{ tag: string }>(
    sql`select distinct unnest(${clients.tags}) as tag from ${clients} where ${clients.orgId} = ${scope.orgId} order by tag limit 500`,
  );
  return rowsOf<{ tag: string }>(rows).map((r) => r.tag);
}
