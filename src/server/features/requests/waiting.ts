import { and, asc, count, eq, inArray, min, sql } from 'drizzle-orm';
import { AWAITING_CLIENT, OPEN_REQUEST_STATUSES } from '../../../domain/requests/constants';
import { requestDisplayStatus } from '../../../domain/requests/rules';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, requests } from '../../db/schema';
import { clientVisibility, visibleClient } from '../clients';
import { firmToday } from './access';

// What waits on clients (issue 36 item 6): the dashboard's card and the client page's summary.

const clientJoin = and(eq(clients.orgId, requests.orgId), eq(clients.id, requests.clientId));

/**
 * Requests sent and not yet submitted (sent, in progress, returned), the soonest due first, so the
 * overdue ones lead; with how many there are and how many of them are overdue. Reads the open
 * requests' due-date index.
 */
export async function waitingOnClients(db: TExecutor, scope: TScope, limit: number) {
  const today = await firmToday(db, scope.orgId);
  const where = and(
    eq(requests.orgId, scope.orgId),
    inArray(requests.status, [...AWAITING_CLIENT]),
    clientVisibility(scope, requests.clientId),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: requests.id,
        title: requests.title,
        status: requests.status,
        dueDate: requests.dueDate,
        clientId: requests.clientId,
        clientName: clients.name,
        projectId: requests.projectId,
        sentAt: requests.sentAt,
      })
      .from(requests)
      .innerJoin(clients, clientJoin)
      .where(where)
      .orderBy(asc(requests.dueDate), asc(requests.id))
      .limit(limit),
    db
      .select({
        total: count(),
        overdue: sql<number>`count(*) filter (where ${requests.dueDate} < ${today}::date)`.mapWith(Number),
      })
      .from(requests)
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, displayStatus: requestDisplayStatus(r, today) })),
    total: totals?.total ?? 0,
    overdue: totals?.overdue ?? 0,
  };
}

/** A client's open requests: how many, how many wait on the client, and the oldest due date. */
export async function clientRequestSummary(db: TExecutor, scope: TScope, clientId: string) {
  await visibleClient(db, scope, clientId);
  const today = await firmToday(db, scope.orgId);
  const [row] = await db
    .select({
      open: count(),
      waiting:
        sql<number>`count(*) filter (where ${requests.status} in ('sent', 'in_progress', 'returned'))`.mapWith(
          Number,
        ),
      overdue:
        sql<number>`count(*) filter (where ${requests.status} in ('sent', 'in_progress', 'returned') and ${requests.dueDate} < ${today}::date)`.mapWith(
          Number,
        ),
      oldestDue: min(requests.dueDate),
    })
    .from(requests)
    .where(
      and(
        eq(requests.orgId, scope.orgId),
        eq(requests.clientId, clientId),
        inArray(requests.status, [...OPEN_REQUEST_STATUSES]),
      ),
    );
  return {
    open: row?.open ?? 0,
    waiting: row?.waiting ?? 0,
    overdue: row?.overdue ?? 0,
    oldestDue: row?.oldestDue ?? null,
    today,
  };
}
