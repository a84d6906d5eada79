import { TRPCError } from '@trpc/server';
import { and, asc, eq } from 'drizzle-orm';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientTeam, members, orgs } from '../../db/schema';
import { recentPortalDocuments } from './documents';
import { portalBalance } from './invoices';
import { projectsInProgress } from './projects';
import { openPortalTasks } from './tasks';

/**
 * The firm as the client sees it: its name and address, and the name (only the name) of the member
 * looking after the client, the first one put on the client's team. The firm has no contact email
 * or phone of its own yet, so none is shown; members' addresses stay inside the firm.
 */
async function firmContact(db: TExecutor, access: TPortalClientAccess) {
  const [firm] = await db
    .select({
      name: orgs.name,
      addressLine1: orgs.addressLine1,
      addressLine2: orgs.addressLine2,
      city: orgs.city,
      region: orgs.region,
      postalCode: orgs.postalCode,
      country: orgs.country,
    })
    .from(orgs)
    .where(eq(orgs.id, access.orgId))
    .limit(1);
  const [responsible] = await db
    .select({ firstName: members.firstName, lastName: members.lastName })
    .from(clientTeam)
    .innerJoin(members, and(eq(members.orgId, clientTeam.orgId), eq(members.id, clientTeam.memberId)))
    .where(
      and(
        eq(clientTeam.orgId, access.orgId),
        eq(clientTeam.clientId, access.clientId),
        eq(members.status, 'active'),
      ),
    )
    .orderBy(asc(clientTeam.createdAt), asc(members.id))
    .limit(1);
  const address = firm
    ? [
        firm.addressLine1,
        firm.addressLine2,
        [firm.postalCode, firm.city].filter(Boolean).join(' '),
        firm.region,
        firm.country,
      ]
        .map((part) => part?.trim())
        .filter(Boolean)
        .join(', ')
    : '';
  const contactName = responsible ? `${responsible.firstName} ${responsible.lastName}`.trim() : '';
  return { name: firm?.name ?? '', address: address || null, contactName: contactName || null };
}

/** The portal's home for one client: what the firm needs, recent files, work in progress, what is owed, the firm. */
export async function portalHome(db: TExecutor, access: TPortalClientAccess) {
  const [[client], firm, openTasks, recentDocuments, projects, billing] = await Promise.all([
    db
      .select({ id: clients.id, name: clients.name })
      .from(clients)
      .where(and(eq(clients.orgId, access.orgId), eq(clients.id, access.clientId)))
      .limit(1),
    firmContact(db, access),
    openPortalTasks(db, access),
    recentPortalDocuments(db, access),
    projectsInProgress(db, access),
    portalBalance(db, access),
  ]);
  if (!client) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return { client, firm, openTasks, recentDocuments, projects, billing };
}
