import { TRPCError } from '@trpc/server';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { OPEN_STATUSES } from '../../../../domain/billing/constants';
import type { TPaymentFilter } from '../../../../domain/billing/payments';
import { invoiceDisplayStatus } from '../../../../domain/billing/status';
import { todayIn } from '../../../../domain/days';
import type { TPage } from '../../../../domain/pagination';
import type { TScope } from '../../../auth';
import type { TExecutor } from '../../../db/client';
import { allocations, clients, invoices, members, orgs, payments } from '../../../db/schema';
import { escapeLike, memberName } from '../../../db/sql';
import { clientVisibility, visibleClient } from '../../clients';
import { clientCredit } from './credit';

// Reading payments: the list (and its export), one payment with where its money went, and a
// client's account as the payment dialogs need it (open invoices oldest first, credit).

/** What was allocated from a payment and is still live. */
const allocatedOf = sql<string>`coalesce((select sum(a.amount) from allocations a
  where a.org_id = payments.org_id and a.payment_id = payments.id and a.reversed_at is null), 0)`;

export function paymentWhere(scope: TScope, f: TPaymentFilter): SQL | undefined {
  const where: (SQL | undefined)[] = [
    eq(payments.orgId, scope.orgId),
    clientVisibility(scope, payments.clientId),
    f.from ? gte(payments.receivedOn, f.from) : undefined,
    f.to ? lte(payments.receivedOn, f.to) : undefined,
    f.method ? eq(payments.method, f.method) : undefined,
    f.kind ? eq(payments.kind, f.kind) : undefined,
    f.clientId ? eq(payments.clientId, f.clientId) : undefined,
    f.reversed === 'yes'
      ? isNotNull(payments.reversedAt)
      : f.reversed === 'no'
        ? isNull(payments.reversedAt)
        : undefined,
  ];
  if (f.tds === 'yes') where.push(gt(payments.tdsAmount, 0));
  if (f.tds === 'no') where.push(eq(payments.tdsAmount, 0));
  if (f.tds === 'pending') {
    where.push(
      gt(payments.tdsAmount, 0),
      eq(payments.tdsCertificateReceived, false),
      isNull(payments.reversedAt),
    );
  }
  if (f.search) {
    const term = escapeLike(f.search);
    where.push(or(ilike(payments.reference, term), ilike(clients.name, term), ilike(clients.code, term)));
  }
  return and(...where);
}

export function paymentOrder(f: TPaymentFilter) {
  const dir = f.direction === 'asc' ? asc : desc;
  const column = {
    receivedOn: payments.receivedOn,
    amount: payments.amount,
    client: clients.name,
    createdAt: payments.createdAt,
  }[f.sort];
  return [dir(column), dir(payments.createdAt), dir(payments.id)];
}

const rowFields = {
  id: payments.id,
  kind: payments.kind,
  receivedOn: payments.receivedOn,
  method: payments.method,
  reference: payments.reference,
  amount: payments.amount,
  tdsAmount: payments.tdsAmount,
  tdsSection: payments.tdsSection,
  tdsCertificateReceived: payments.tdsCertificateReceived,
  bankCharges: payments.bankCharges,
  notes: payments.notes,
  reversedAt: payments.reversedAt,
  reverseReason: payments.reverseReason,
  createdAt: payments.createdAt,
  allocated: allocatedOf,
  clientId: clients.id,
  clientName: clients.name,
  clientCode: clients.code,
};

type TRaw = Awaited<ReturnType<typeof paymentRows>>[number];

function shape<T extends TRaw>({ allocated, clientId, clientName, clientCode, ...r }: T) {
  const used = Number(allocated);
  const value = r.kind === 'receipt' ? r.amount + r.tdsAmount + r.bankCharges : 0;
  return {
    ...r,
    allocated: used,
    /** What this receipt left as credit (nothing once reversed). */
    unallocated: r.reversedAt ? 0 : Math.max(value - used, 0),
    client: { id: clientId, name: clientName, code: clientCode },
  };
}

export type TPaymentRow = ReturnType<typeof shape<TRaw>>;

export function paymentRows(
  db: TExecutor,
  scope: TScope,
  f: TPaymentFilter,
  window: { limit: number; offset: number },
  until?: Date,
) {
  return db
    .select(rowFields)
    .from(payments)
    .innerJoin(clients, and(eq(clients.orgId, payments.orgId), eq(clients.id, payments.clientId)))
    .where(and(paymentWhere(scope, f), until ? lte(payments.createdAt, until) : undefined))
    .orderBy(...paymentOrder(f))
    .limit(window.limit)
    .offset(window.offset);
}

export async function listPayments(
  db: TExecutor,
  scope: TScope,
  input: TPaymentFilter & { page: number; pageSize: number },
): Promise<TPage<TPaymentRow>> {
  const [rows, [totals]] = await Promise.all([
    paymentRows(db, scope, input, { limit: input.pageSize, offset: (input.page - 1) * input.pageSize }),
    db
      .select({ total: count() })
      .from(payments)
      .innerJoin(clients, and(eq(clients.orgId, payments.orgId), eq(clients.id, payments.clientId)))
      .where(paymentWhere(scope, input)),
  ]);
  return {
    rows: rows.map((r) => shape(r)),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export { shape as paymentShape };

/** One payment with every allocation it made (live and taken back) and who recorded or reversed it. */
export async function paymentDetail(db: TExecutor, scope: TScope, paymentId: string) {
  const [row] = await db
    .select({
      ...rowFields,
      gateway: payments.gateway,
      createdBy: payments.createdBy,
      reversedBy: payments.reversedBy,
    })
    .from(payments)
    .innerJoin(clients, and(eq(clients.orgId, payments.orgId), eq(clients.id, payments.clientId)))
    .where(
      and(
        eq(payments.orgId, scope.orgId),
        eq(payments.id, paymentId),
        clientVisibility(scope, payments.clientId),
      ),
    );
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Payment not found' });
  const people = [row.createdBy, row.reversedBy].filter((id): id is string => !!id);
  const [allocationRows, names] = await Promise.all([
    db
      .select({
        id: allocations.id,
        invoiceId: allocations.invoiceId,
        number: invoices.number,
        issueDate: invoices.issueDate,
        amount: allocations.amount,
        allocatedOn: allocations.allocatedOn,
        reversedAt: allocations.reversedAt,
      })
      .from(allocations)
      .innerJoin(invoices, and(eq(invoices.orgId, allocations.orgId), eq(invoices.id, allocations.invoiceId)))
      .where(and(eq(allocations.orgId, scope.orgId), eq(allocations.paymentId, paymentId)))
      .orderBy(asc(allocations.createdAt), asc(invoices.issueDate)),
    people.length
      ? db
          .select({ id: members.id, name: memberName })
          .from(members)
          .where(and(eq(members.orgId, scope.orgId), inArray(members.id, people)))
      : Promise.resolve([]),
  ]);
  const nameOf = (id: string | null) => (id ? (names.find((n) => n.id === id)?.name ?? null) : null);
  const { createdBy, reversedBy, gateway, ...rest } = row;
  return {
    ...shape(rest),
    gateway,
    recordedBy: nameOf(createdBy),
    reversedBy: nameOf(reversedBy),
    allocations: allocationRows,
  };
}

/**
 * A client's account as the payment dialogs need it: its open invoices, oldest due first (the order
 * a payment is suggested to settle them), what it owes in all and its credit.
 */
export async function clientAccount(db: TExecutor, scope: TScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const [[org], open, credit] = await Promise.all([
    db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, scope.orgId)),
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        issueDate: invoices.issueDate,
        dueDate: invoices.dueDate,
        status: invoices.status,
        total: invoices.total,
        amountPaid: invoices.amountPaid,
        balance: invoices.balance,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.orgId, scope.orgId),
          eq(invoices.clientId, client.id),
          eq(invoices.kind, 'invoice'),
          inArray(invoices.status, [...OPEN_STATUSES]),
          gt(invoices.balance, 0),
        ),
      )
      .orderBy(sql`${invoices.dueDate} asc nulls last`, asc(invoices.issueDate), asc(invoices.seq))
      .limit(500),
    clientCredit(db, scope.orgId, client.id),
  ]);
  const today = todayIn(org?.timeZone ?? 'UTC');
  return {
    client: { id: client.id, name: client.name, code: client.code },
    credit,
    outstanding: open.reduce((s, i) => s + i.balance, 0),
    openInvoices: open.map((i) => ({ ...i, displayStatus: invoiceDisplayStatus(i, today) })),
  };
}

/** The clients the caller may see whose name or code holds the search: the payment dialog's picker. */
export async function clientOptions(
  db: TExecutor,
  scope: TScope,
  input: { search?: string; clientId?: string },
) {
  const term = input.search ? escapeLike(input.search) : null;
  const rows = await db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(
      and(
        eq(clients.orgId, scope.orgId),
        clientVisibility(scope),
        isNull(clients.archivedAt),
        term ? or(ilike(clients.name, term), ilike(clients.code, term)) : undefined,
      ),
    )
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(30);
  if (input.clientId && !rows.some((r) => r.id === input.clientId)) {
    const [chosen] = await db
      .select({ id: clients.id, name: clients.name, code: clients.code })
      .from(clients)
      .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, input.clientId), clientVisibility(scope)));
    if (chosen) rows.unshift(chosen);
  }
  return rows;
}
