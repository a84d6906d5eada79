import { and, count, eq } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { clientGroups, clientServices } from '../../db/schema';
import type { TClientScope } from './list';
import { clientTaxIds } from './registered-tax-ids';
import { clientTeamOf } from './team';
import { visibleClient } from './visibility';

export async function getClient(db: TExecutor, scope: TClientScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const [group, team, [services]] = await Promise.all([
    client.groupId
      ? db
          .select({ id: clientGroups.id, name: clientGroups.name })
          .from(clientGroups)
          .where(and(eq(clientGroups.orgId, scope.orgId), eq(clientGroups.id, client.groupId)))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    clientTeamOf(db, scope.orgId, clientId),
    db
      .select({ total: count() })
      .from(clientServices)
      .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.clientId, clientId))),
  ]);
  const { lat, lng, searchText: _s, ...rest } = client;
  return {
    ...rest,
    // The whole list: its own identifiers and the registrations' PAN, TAN and GSTIN.
    taxIds: await clientTaxIds(db, scope.orgId, client.id, client.taxIds),
    location: lat != null && lng != null ? { lat, lng } : null,
    group,
    team,
    counts: { team: team.length, services: services?.total ?? 0 },
  };
}
export type TClientDetail = Awaited<ReturnType<typeof getClient>>;
