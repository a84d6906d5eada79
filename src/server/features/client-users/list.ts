import { and, asc, count, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { TClientUserListQuery, TClientUserStatus } from '../../../domain/client-users';
import type { TPage } from '../../../domain/pagination';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientUserClients, clientUserInvites, clientUsers } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { visibleClient } from '../clients';

// The staff side of the portal's people (/clients/{id}/client-users). Every call starts from a
// client this member may see (visibleClient: the firm, and "assigned clients only"); a client user
// is reached only through its link to that client, so another firm's or another client's person
// answers NOT_FOUND.

export type TClientUserRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  status: TClientUserStatus;
  lastSignInAt: Date | null;
  /** The open invitation to this client, if any (expired ones too: they can be resent). */
  invite: { sentAt: Date; expiresAt: Date; expired: boolean } | null;
};

const openInviteOn = and(
  eq(clientUserInvites.orgId, clientUserClients.orgId),
  eq(clientUserInvites.clientUserId, clientUserClients.clientUserId),
  eq(clientUserInvites.clientId, clientUserClients.clientId),
  isNull(clientUserInvites.acceptedAt),
  isNull(clientUserInvites.revokedAt),
);

export async function listClientUsers(
  db: TExecutor,
  scope: TScope,
  input: TClientUserListQuery,
): Promise<TPage<TClientUserRow>> {
  await visibleClient(db, scope, input.clientId);
  const where: SQL[] = [
    eq(clientUserClients.orgId, scope.orgId),
    eq(clientUserClients.clientId, input.clientId),
  ];
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(ilike(clientUsers.name, term), ilike(clientUsers.email, term));
    if (match) where.push(match);
  }
  const base = () =>
    db
      .select({
        id: clientUsers.id,
        name: clientUsers.name,
        email: clientUsers.email,
        phone: clientUsers.phone,
        status: clientUsers.status,
        lastSignInAt: clientUsers.lastSignInAt,
        sentAt: clientUserInvites.lastSentAt,
        expiresAt: clientUserInvites.expiresAt,
      })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .leftJoin(clientUserInvites, openInviteOn);
  const [rows, [totals]] = await Promise.all([
    base()
      .where(and(...where))
      .orderBy(asc(clientUsers.name), asc(clientUsers.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db
      .select({ total: count() })
      .from(clientUserClients)
      .innerJoin(
        clientUsers,
        and(
          eq(clientUsers.orgId, clientUserClients.orgId),
          eq(clientUsers.id, clientUserClients.clientUserId),
        ),
      )
      .where(and(...where)),
  ]);
  const now = Date.now();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      status: r.status,
      lastSignInAt: r.lastSignInAt,
      invite:
        r.sentAt && r.expiresAt
          ? { sentAt: r.sentAt, expiresAt: r.expiresAt, expired: r.expiresAt.getTime() <= now }
          : null,
    })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
