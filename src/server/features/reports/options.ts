import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientGroups, clients, members, services } from '../../db/schema';
import { rowsOf } from '../../db/sql';

/** The filters' choices for a report viewer (who may lack services.view or team.view): names only. */
export async function reportOptions(db: TExecutor, scope: TScope) {
  const o = scope.orgId;
  const [serviceRows, groupRows, memberRows, tagRows] = await Promise.all([
    db
      .select({
        id: services.id,
        name: services.name,
        frequency: services.frequency,
        hasTemplate: sql<boolean>`${services.projectTemplateId} is not null`,
      })
      .from(services)
      .where(and(eq(services.orgId, o), isNull(services.archivedAt)))
      .orderBy(asc(services.name)),
    db
      .select({ id: clientGroups.id, name: clientGroups.name })
      .from(clientGroups)
      .where(eq(clientGroups.orgId, o))
      .orderBy(asc(clientGroups.name)),
    db
      .select({ id: members.id, name: sql<string>`trim(${members.firstName} || ' ' || ${members.lastName})` })
      .from(members)
      .where(and(eq(members.orgId, o), eq(members.status, 'active')))
      .orderBy(asc(members.firstName), asc(members.lastName)),
    // The tags on the firm's live clients (as the clients list offers them), for the tag filter.
    db.execute(
      sql`select distinct unnest(${clients.tags}) as tag from ${clients}
        where ${clients.orgId} = ${o} and ${clients.archivedAt} is null order by tag limit 500`,
    ),
  ]);
  const tags = rowsOf<{ tag: string }>(tagRows).map((r) => r.tag);
  return { services: serviceRows, groups: groupRows, members: memberRows, tags };
}
