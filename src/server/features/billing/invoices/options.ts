import { and, asc, eq, ilike, isNull, or } from 'drizzle-orm';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { clients, services } from '../../../db/schema';
import { escapeLike } from '../../../db/sql';
import { clientVisibility } from '../../clients';

/** Clients to bill, found by a few letters of the name or code: the 20 best, visible ones only. */
export async function clientOptions(
  db: TExecutor,
  scope: TScope,
  input: { search?: string; clientId?: string },
) {
  const term = input.search?.trim();
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(
      and(
        eq(clients.orgId, scope.orgId),
        clientVisibility(scope),
        input.clientId ? eq(clients.id, input.clientId) : isNull(clients.archivedAt),
        term ? or(ilike(clients.name, escapeLike(term)), ilike(clients.code, escapeLike(term))) : undefined,
      ),
    )
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(20);
}

/** The catalogue's live services for a line's picker, with the tax code and rate each fills in. */
export function serviceOptions(db: TExecutor, scope: TScope) {
  return db
    .select({
      id: services.id,
      name: services.name,
      code: services.code,
      taxCode: services.taxCode,
      taxRateBp: services.taxRateBp,
    })
    .from(services)
    .where(and(eq(services.orgId, scope.orgId), isNull(services.archivedAt)))
    .orderBy(asc(services.name), asc(services.id))
    .limit(500);
}
