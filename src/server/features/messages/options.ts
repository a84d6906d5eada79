import { and, asc, eq, ne } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientUserClients, clientUsers, members } from '../../db/schema';
import { memberName } from '../../db/sql';
import { visibleClient } from '../clients';

/** Who can be put on a client's thread: its portal users, and the firm's active members. */
export async function peopleOptions(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  const [portal, staff] = await Promise.all([
    db
      .select({
        id: clientUsers.id,
        name: clientUsers.name,
        email: clientUsers.email,
        status: clientUsers.status,
      })
      .from(clientUsers)
      .innerJoin(
        clientUserClients,
        and(
          eq(clientUserClients.orgId, clientUsers.orgId),
          eq(clientUserClients.clientUserId, clientUsers.id),
          eq(clientUserClients.clientId, clientId),
        ),
      )
      .where(and(eq(clientUsers.orgId, scope.orgId), ne(clientUsers.status, 'disabled')))
      .orderBy(asc(clientUsers.name))
      .limit(200),
    db
      .select({ id: members.id, name: memberName, email: members.email })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
      .orderBy(memberName)
      .limit(500),
  ]);
  return { clientUsers: portal, members: staff };
}
