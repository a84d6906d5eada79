import { and, asc, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TPage } from '../../../domain/pagination';
import {
  AWAITING_CLIENT,
  OPEN_REQUEST_STATUSES,
  type TRequestStatus,
} from '../../../domain/requests/constants';
import { requestDisplayStatus } from '../../../domain/requests/rules';
import type { ZRequestListInput } from '../../../domain/requests/schemas';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, requests } from '../../db/schema';
import { cappedCount, escapeLike } from '../../db/sql';
import { clientVisibility } from '../clients';
import { firmToday, progressByRequest } from './access';

type TInput = z.output<typeof ZRequestListInput>;

function statusWhere(status: TInput['status']): SQL | undefined {
  if (!status) return undefined;
  if (status === 'open') return inArray(requests.status, [...OPEN_REQUEST_STATUSES]);
  return eq(requests.status, status as TRequestStatus);
}

const clientJoin = and(eq(clients.orgId, requests.orgId), eq(clients.id, requests.clientId));

/**
 * The firm's requests, newest first (or by due date), filtered by status, client and Overdue, inside
 * the clients the caller may see. Each row carries its "7 of 12".
 */
export async function listRequests(db: TExecutor, scope: TScope, input: TInput) {
  // The firm's today filters only for Overdue; otherwise it is read beside the page (each row's
  // status shows Overdue), one round trip fewer.
  const filtersByToday = input.overdue !== undefined;
  const today = filtersByToday ? await firmToday(db, scope.orgId) : '';
  const term = input.search?.trim();
  const where = and(
    eq(requests.orgId, scope.orgId),
    clientVisibility(scope, requests.clientId),
    input.clientId ? eq(requests.clientId, input.clientId) : undefined,
    input.projectId ? eq(requests.projectId, input.projectId) : undefined,
    input.taskId ? eq(requests.taskId, input.taskId) : undefined,
    statusWhere(input.status),
    input.overdue
      ? and(inArray(requests.status, [...AWAITING_CLIENT]), lt(requests.dueDate, today))
      : undefined,
    input.overdue === false
      ? or(sql`${requests.status} not in ('sent', 'in_progress', 'returned')`, gte(requests.dueDate, today))
      : undefined,
    term ? or(ilike(requests.title, escapeLike(term)), ilike(clients.name, escapeLike(term))) : undefined,
  );
  const dir = input.direction === 'asc' ? asc : desc;
  const order =
    input.sort === 'dueDate'
      ? [dir(requests.dueDate), dir(requests.id)]
      : input.sort === 'client'
        ? [dir(clients.name), dir(requests.id)]
        : [dir(requests.createdAt), dir(requests.id)];
  const counted = db.select({ one: requests.id }).from(requests).$dynamic();
  const [rows, counts, firmDay] = await Promise.all([
    db
      .select({
        id: requests.id,
        title: requests.title,
        status: requests.status,
        dueDate: requests.dueDate,
        clientId: requests.clientId,
        clientName: clients.name,
        projectId: requests.projectId,
        taskId: requests.taskId,
        origin: requests.origin,
        sentAt: requests.sentAt,
        submittedAt: requests.submittedAt,
        createdAt: requests.createdAt,
      })
      .from(requests)
      .innerJoin(clients, clientJoin)
      .where(where)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    // The client is joined only when the search names it (a request's client always exists).
    cappedCount(db, (term ? counted.innerJoin(clients, clientJoin) : counted).where(where)),
    filtersByToday ? today : firmToday(db, scope.orgId),
  ]);
  const progress = await progressByRequest(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  const page: TPage<
    (typeof rows)[number] & {
      displayStatus: ReturnType<typeof requestDisplayStatus>;
      progress: { done: number; total: number };
    }
  > = {
    rows: rows.map((r) => ({
      ...r,
      displayStatus: requestDisplayStatus(r, firmDay),
      progress: progress.get(r.id) ?? { done: 0, total: 0 },
    })),
    ...counts,
    page: input.page,
    pageSize: input.pageSize,
  };
  return page;
}
