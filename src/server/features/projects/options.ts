import { and, asc, eq, ilike, isNull, or } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, members, services } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility } from '../clients';

/** Pickers for the list's filters and the project form. */
export async function projectOptions(db: TExecutor, scope: TScope) {
  const [serviceRows, memberRows] = await Promise.all([
    db
      .select({ id: services.id, name: services.name, templateId: services.projectTemplateId })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), isNull(services.archivedAt)))
      .orderBy(asc(services.name)),
    db
      .select({ id: members.id, name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
      .orderBy(asc(members.firstName), asc(members.lastName)),
  ]);
  return { services: serviceRows, members: memberRows };
}

/** Clients matching a few letters, for a picker: a firm may have tens of thousands. */
export async function searchClients(
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
        isNull(clients.archivedAt),
        clientVisibility(scope),
        input.clientId ? eq(clients.id, input.clientId) : undefined,
        term ? or(ilike(clients.name, escapeLike(term)), ilike(clients.code, escapeLike(term))) : undefined,
      ),
    )
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(20);
}
