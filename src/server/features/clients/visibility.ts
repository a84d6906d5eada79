import { TRPCError } from '@trpc/server';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientTeam } from '../../db/schema';

// "Assigned clients only", in one place. Whether it applies to the caller is decided once, in the
// scope (src/server/auth: the role's flag without `clients.all`); what it means is decided here: the
// caller is on the client's team. Every feature that shows a client's records asks these.

type TVisibilityScope = Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>;

/**
 * The client (by an id column) is one the caller is on the team of: "my clients", whatever the
 * caller's role. An uncorrelated IN list, which PostgreSQL hashes once per query.
 */
export function onMyClientTeam(scope: Pick<TScope, 'orgId' | 'memberId'>, clientId: AnyPgColumn | SQL): SQL {
  return sql`${clientId} in (select ${clientTeam.clientId} from ${clientTeam}
    where ${clientTeam.orgId} = ${scope.orgId} and ${clientTeam.memberId} = ${scope.memberId})`;
}

/**
 * The condition a query adds on a client id column (`clients.id` by default, or a record's
 * `client_id`): the caller may see that client. Undefined (no condition) for a caller who sees every
 * client of the firm. A null client id is not matched: a record without a client says itself who
 * sees it.
 */
export function clientVisibility(
  scope: TVisibilityScope,
  clientId: AnyPgColumn | SQL = clients.id,
): SQL | undefined {
  return scope.assignedClientsOnly ? onMyClientTeam(scope, clientId) : undefined;
}

/** The client, if the caller may see it; NOT_FOUND for another firm's, a missing or a hidden one. */
export async function visibleClient(db: TExecutor, scope: TVisibilityScope, clientId: string, lock = false) {
  const query = db
    .select()
    .from(clients)
    .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId), clientVisibility(scope)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return row;
}
