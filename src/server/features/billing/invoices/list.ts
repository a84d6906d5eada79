import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  OPEN_STATUSES,
  type TInvoiceDisplayStatus,
  type TInvoiceStatus,
} from '../../../../domain/billing/constants';
import {
  documentStatus,
  type TInvoiceExportQuery,
  type TInvoiceListQuery,
  type TInvoiceSort,
} from '../../../../domain/billing/invoices';

import type { TPage } from '../../../../domain/pagination';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { clients, invoices } from '../../../db/schema';
import { cappedCount, escapeLike } from '../../../db/sql';
import { clientVisibility } from '../../clients';
import { firmToday } from './access';

type TFilter = Omit<TInvoiceExportQuery, 'sort' | 'direction'>;
type TVisibility = Pick<TScope, 'orgId' | 'memberId' | 'assignedClientsOnly'>;

/**
 * Invoices the client still owes on. A credit note is never owed or overdue: what it has not
 * settled yet is the client's credit, which payments apply.
 */
export const owedWhere = and(eq(invoices.kind, 'invoice'), inArray(invoices.status, [...OPEN_STATUSES]));
const notOverdue = (today: string) =>
  or(eq(invoices.kind, 'credit_note'), isNull(invoices.dueDate), gte(invoices.dueDate, today));

/** The status filter as the badge reads: Overdue is derived with the firm's today (SPEC §4's rule). */
function statusWhere(status: TFilter['status'], today: string): SQL | undefined {
  if (!status) return undefined;
  if (status === 'outstanding') return owedWhere;
  if (status === 'overdue') return and(owedWhere, lt(invoices.dueDate, today));
  if ((OPEN_STATUSES as readonly string[]).includes(status))
    return and(eq(invoices.status, status), notOverdue(today));
  return eq(invoices.status, status as TInvoiceStatus);
}

/**
 * The list's filter in SQL, inside the caller's firm and the clients they may see. The query joins
 * clients (for the name searched and shown), so the search may name it.
 */
export function invoiceListWhere(scope: TVisibility, filter: TFilter, today: string): SQL | undefined {
  const term = filter.search?.trim();
  return and(
    eq(invoices.orgId, scope.orgId),
    clientVisibility(scope, invoices.clientId),
    filter.clientId ? eq(invoices.clientId, filter.clientId) : undefined,
    filter.kind ? eq(invoices.kind, filter.kind) : undefined,
    filter.from ? gte(invoices.issueDate, filter.from) : undefined,
    filter.to ? lte(invoices.issueDate, filter.to) : undefined,
    statusWhere(filter.status, today),
    term ? or(ilike(invoices.number, escapeLike(term)), ilike(clients.name, escapeLike(term))) : undefined,
  );
}

/**
 * Sort columns. PostgreSQL's default null order (last going up, first going down) is what the
 * (org_id, issue_date, id) index serves in both directions: drafts, with no issue date yet, come
 * first in the newest-first default.
 */
export function invoiceOrder(sort: TInvoiceSort, direction: 'asc' | 'desc') {
  const dir = direction === 'asc' ? asc : desc;
  const columns = {
    issueDate: [invoices.issueDate],
    number: [invoices.fiscalYear, invoices.series, invoices.seq],
    client: [clients.name],
    total: [invoices.total],
    balance: [invoices.balance],
    dueDate: [invoices.dueDate],
  }[sort];
  // Ids are time-ordered (uuidv7): the tie-break is the order they were made, and the index's own.
  return [...columns.map((c) => dir(c)), dir(invoices.id)];
}

export const invoiceListColumns = {
  id: invoices.id,
  kind: invoices.kind,
  status: invoices.status,
  number: invoices.number,
  clientId: invoices.clientId,
  clientName: clients.name,
  clientCode: clients.code,
  issueDate: invoices.issueDate,
  dueDate: invoices.dueDate,
  currency: invoices.currency,
  total: invoices.total,
  amountPaid: invoices.amountPaid,
  balance: invoices.balance,
  sentAt: invoices.sentAt,
  createdAt: invoices.createdAt,
};

const clientJoin = and(eq(clients.orgId, invoices.orgId), eq(clients.id, invoices.clientId));

export async function listInvoices(db: TExecutor, scope: TScope, input: TInvoiceListQuery) {
  // The firm's today reads only its clock: the filter waits for it only when a status asks for it
  // (Overdue is derived), else it goes beside the page and is used for the badges.
  const todayRead = firmToday(db, scope.orgId);
  const status = input.status;
  const needsToday =
    status === 'overdue' || (!!status && (OPEN_STATUSES as readonly string[]).includes(status));
  const where = invoiceListWhere(scope, input, needsToday ? await todayRead : '');
  // The totals join the client only when the search names it (the invoice's client always exists): the
  // count is then an index-only scan of invoices_org_idx, stopped at the cap (cappedCount), and what
  // is owed is summed from the open invoices' partial index alone, each beside the page.
  const named = !!input.search?.trim();
  const counted = db.select({ one: invoices.id }).from(invoices).$dynamic();
  const owed = db
    .select({ balance: sql<string>`coalesce(sum(${invoices.balance}), 0)` })
    .from(invoices)
    .$dynamic();
  const [today, rows, counts, [owing]] = await Promise.all([
    todayRead,
    db
      .select(invoiceListColumns)
      .from(invoices)
      .innerJoin(clients, clientJoin)
      .where(where)
      .orderBy(...invoiceOrder(input.sort, input.direction))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    cappedCount(db, (named ? counted.innerJoin(clients, clientJoin) : counted).where(where)),
    // What the filtered list still has to collect, for the header.
    (named ? owed.innerJoin(clients, clientJoin) : owed).where(and(where, owedWhere)),
  ]);
  const page: TPage<(typeof rows)[number] & { displayStatus: TInvoiceDisplayStatus }> = {
    rows: rows.map((r) => ({ ...r, displayStatus: documentStatus(r, today) })),
    ...counts,
    page: input.page,
    pageSize: input.pageSize,
  };
  return { ...page, outstanding: Number(owing?.balance ?? 0), today };
}
