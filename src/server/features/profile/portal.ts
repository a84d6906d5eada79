import { and, eq, inArray } from 'drizzle-orm';
import { logoUrl } from '../../../domain/settings';
import type { TPortalSession } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, orgs } from '../../db/schema';

/**
 * The signed-in portal user (clientPortalProfile.me): who they are and the clients they may act
 * for, each with its firm's name, logo and locale settings. Nothing about the firm's staff is included.
 */
export async function getPortalProfile(db: TExecutor, portal: TPortalSession) {
  const clientIds = portal.clients.map((c) => c.clientId);
  const rows = clientIds.length
    ? await db
        .select({
          id: clients.id,
          name: clients.name,
          code: clients.code,
          orgId: orgs.id,
          orgName: orgs.name,
          logoVersion: orgs.logoVersion,
          country: orgs.country,
          timeZone: orgs.timeZone,
          currency: orgs.currency,
        })
        .from(clients)
        .innerJoin(orgs, eq(orgs.id, clients.orgId))
        .where(
          and(
            inArray(clients.id, clientIds),
            inArray(
              clients.orgId,
              portal.clients.map((c) => c.orgId),
            ),
          ),
        )
        .orderBy(clients.name)
    : [];
  const [first] = portal.users;
  return {
    id: first?.clientUserId ?? '',
    name: first?.name ?? portal.email,
    email: portal.email,
    clients: rows.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      firm: {
        id: r.orgId,
        name: r.orgName,
        logoUrl: logoUrl(r.orgId, r.logoVersion),
        // The portal writes dates and amounts as the firm does.
        country: r.country,
        timeZone: r.timeZone,
        currency: r.currency,
      },
    })),
  };
}
export type TPortalProfile = Awaited<ReturnType<typeof getPortalProfile>>;
