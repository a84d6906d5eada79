import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { hasPermission } from '../../../domain/permissions';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientTeam } from '../../db/schema';

/** Whether the caller sees only the clients whose team they are on. */
export const limitedToAssigned = (scope: TScope) =>
  scope.assignedClientsOnly && !hasPermission(scope, 'clients.all');

/**
 * The condition on `clients` a query adds for an "assigned clients only" role: the caller is on the
 * client's team. Undefined (no condition) for everyone else.
 */
export function clientVisibility(scope: TScope): SQL | undefined {
  if (!limitedToAssigned(scope)) return undefined;
  return sql`exists (select 1 from ${clientTeam} where ${clientTeam.orgId} = ${clients.orgId}
    and ${clientTeam.clientId} = ${clients.id} and ${clientTeam.memberId} = ${scope.memberId})`;
}

/** The client if the caller may see it; NOT_FOUND for another firm's, a missing or a hidden one. */
export async function visibleClient(db: TExecutor, scope: TScope, clientId: string) {
  const [row] = await db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId), clientVisibility(scope)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return row;
}
