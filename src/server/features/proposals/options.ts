import { and, asc, eq, ilike, isNull, ne } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientUserClients, clientUsers, requestTemplates, services } from '../../db/schema';
import { clientVisibility, visibleClient } from '../clients';

// The proposal form's pickers: the catalogue's live services, and the clients and prospects the
// member may write to (prospects are left out of the client list, so the form asks here).

export async function serviceOptions(db: TExecutor, scope: TScope) {
  return db
    .select({
      id: services.id,
      name: services.name,
      billingMode: services.billingMode,
      defaultFee: services.defaultFee,
    })
    .from(services)
    .where(and(eq(services.orgId, scope.orgId), isNull(services.archivedAt)))
    .orderBy(asc(services.name))
    .limit(500);
}

export async function clientOptions(db: TExecutor, scope: TScope, search: string) {
  const visible = clientVisibility(scope);
  const escaped = search.replace(/[\\%_]/g, (c) => `\\${c}`);
  return db
    .select({
      id: clients.id,
      name: clients.name,
      code: clients.code,
      prospect: clients.prospect,
      email: clients.email,
    })
    .from(clients)
    .where(
      and(
        eq(clients.orgId, scope.orgId),
        isNull(clients.archivedAt),
        ...(visible ? [visible] : []),
        ...(search ? [ilike(clients.name, `%${escaped}%`)] : []),
      ),
    )
    .orderBy(asc(clients.name))
    .limit(20);
}

/** The firm's request templates, for the onboarding request sent after acceptance. */
export async function requestTemplateOptions(db: TExecutor, scope: TScope) {
  return db
    .select({ id: requestTemplates.id, name: requestTemplates.name })
    .from(requestTemplates)
    .where(eq(requestTemplates.orgId, scope.orgId))
    .orderBy(asc(requestTemplates.name), asc(requestTemplates.id))
    .limit(500);
}

/** Who can be asked to sign for a client: its portal users (not disabled) and its contact email. */
export async function signerOptions(db: TExecutor, scope: TScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const users = await db
    .select({ name: clientUsers.name, email: clientUsers.email })
    .from(clientUserClients)
    .innerJoin(
      clientUsers,
      and(eq(clientUsers.orgId, clientUserClients.orgId), eq(clientUsers.id, clientUserClients.clientUserId)),
    )
    .where(
      and(
        eq(clientUserClients.orgId, scope.orgId),
        eq(clientUserClients.clientId, client.id),
        ne(clientUsers.status, 'disabled'),
      ),
    )
    .orderBy(asc(clientUsers.name))
    .limit(50);
  const contact = client.email ? [{ name: client.name, email: client.email, portal: false }] : [];
  return [
    ...users.map((u) => ({ ...u, portal: true })),
    ...contact.filter((c) => !users.some((u) => u.email === c.email)),
  ];
}
