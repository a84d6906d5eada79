import { and, asc, eq, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { TDb } from '../../src/server/db/client';
import { clients, clientUserClients, clientUsers, systemLog } from '../../src/server/db/schema';

export type TDemoPortalUser = { name: string; email: string; clients: string[] };

/**
 * The firm's client portal, in use: a director acting for two companies of one group, and two
 * people with one client each. All active (as if they had accepted their invitations); they sign in
 * with a one-time code, which the outbox (or the server log) shows.
 */
export async function createDemoPortalUsers(
  db: TDb,
  orgId: string,
  ownerId: string,
  domain: string,
): Promise<TDemoPortalUser[]> {
  const clientDomain = `clients.${domain}`;
  const [group] = await db
    .select({ groupId: clients.groupId })
    .from(clients)
    .where(and(eq(clients.orgId, orgId), isNotNull(clients.groupId), isNull(clients.archivedAt)))
    .groupBy(clients.groupId)
    .having(sql`count(*) >= 2`)
    .orderBy(asc(clients.groupId))
    .limit(1);
  const grouped = group?.groupId
    ? await db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(and(eq(clients.orgId, orgId), eq(clients.groupId, group.groupId), isNull(clients.archivedAt)))
        .orderBy(asc(clients.name))
        .limit(2)
    : [];
  const singles = await db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .where(
      and(
        eq(clients.orgId, orgId),
        isNull(clients.archivedAt),
        grouped.length
          ? notInArray(
              clients.id,
              grouped.map((c) => c.id),
            )
          : undefined,
      ),
    )
    .orderBy(asc(clients.code))
    .limit(2);
  const plan = [
    { name: 'Rohan Kapoor', email: `rohan@${clientDomain}`, phone: '+91 98200 11111', for: grouped },
    {
      name: 'Anita Desai',
      email: `anita@${clientDomain}`,
      phone: '+91 98200 22222',
      for: singles.slice(0, 1),
    },
    { name: 'Vikram Joshi', email: `vikram@${clientDomain}`, phone: null, for: singles.slice(1, 2) },
  ].filter((p) => p.for.length > 0);

  const made: TDemoPortalUser[] = [];
  for (const person of plan) {
    const [user] = await db
      .insert(clientUsers)
      .values({
        orgId,
        email: person.email,
        name: person.name,
        phone: person.phone,
        status: 'active',
        invitedBy: ownerId,
      })
      .returning({ id: clientUsers.id });
    if (!user) throw new Error('demo client user not created');
    await db
      .insert(clientUserClients)
      .values(person.for.map((c) => ({ orgId, clientUserId: user.id, clientId: c.id })));
    // The entries the invitations would have written.
    await db.insert(systemLog).values(
      person.for.map((c) => ({
        orgId,
        actorKind: 'member' as const,
        actorMemberId: ownerId,
        action: 'client_user.invite',
        recordType: 'client_user',
        recordId: user.id,
        summary: `Invited ${person.name} (${person.email}) to the portal for ${c.name}`,
      })),
    );
    made.push({ name: person.name, email: person.email, clients: person.for.map((c) => c.name) });
  }
  return made;
}
