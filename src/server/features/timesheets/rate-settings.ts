import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { createFormatter } from '../../../domain/format';
import type { TPage } from '../../../domain/pagination';
import { RATE_KIND_LABELS, type TRateKind, type TRateSet } from '../../../domain/timesheet-rates';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, orgs, services, tasks, timesheetRates } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { audit } from '../system-log';

// The rates screen: list members, clients and services with their rates a page at a time, and set
// or clear one rate (a task's too). Every procedure here sits behind timesheets.rates.

type TListInput = { page: number; pageSize: number; search?: string };

/** The rate of one kind joined onto a list's rows by their id column. */
function joinRate(kind: TRateKind, name: string) {
  const rate = alias(timesheetRates, name);
  return {
    rate,
    on: (orgId: AnyPgColumn, refId: AnyPgColumn) =>
      and(eq(rate.orgId, orgId), eq(rate.kind, kind), eq(rate.refId, refId)),
  };
}

async function paged<T>(rows: Promise<T[]>, total: Promise<{ total: number }[]>, input: TListInput) {
  const [r, [t]] = await Promise.all([rows, total]);
  return { rows: r, total: t?.total ?? 0, page: input.page, pageSize: input.pageSize } satisfies TPage<T>;
}

const window = (input: TListInput) => ({ limit: input.pageSize, offset: (input.page - 1) * input.pageSize });

export type TMemberRateRow = {
  id: string;
  name: string;
  email: string;
  status: string;
  costRate: number | null;
  billRate: number | null;
};

/** Every member of the firm with their cost and billing rates, by name. */
export async function memberRates(db: TExecutor, scope: TScope, input: TListInput) {
  const cost = joinRate('cost', 'cost_rate');
  const bill = joinRate('member', 'bill_rate');
  const term = input.search ? escapeLike(input.search) : null;
  const where = and(
    eq(members.orgId, scope.orgId),
    term
      ? or(ilike(members.firstName, term), ilike(members.lastName, term), ilike(members.email, term))
      : undefined,
  );
  const { limit, offset } = window(input);
  return paged<TMemberRateRow>(
    db
      .select({
        id: members.id,
        name: memberName,
        email: members.email,
        status: members.status,
        costRate: cost.rate.rate,
        billRate: bill.rate.rate,
      })
      .from(members)
      .leftJoin(cost.rate, cost.on(members.orgId, members.id))
      .leftJoin(bill.rate, bill.on(members.orgId, members.id))
      .where(where)
      .orderBy(asc(members.firstName), asc(members.lastName), asc(members.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(members).where(where),
    input,
  );
}

export type TNamedRateRow = { id: string; name: string; code: string; billRate: number | null };

/** The clients the caller may see (not archived), with their billing rates, by name. */
export async function clientRates(db: TExecutor, scope: TScope, input: TListInput) {
  const bill = joinRate('client', 'bill_rate');
  const where = and(
    eq(clients.orgId, scope.orgId),
    isNull(clients.archivedAt),
    clientVisibility(scope),
    input.search ? sql`${clients.searchText} ilike ${escapeLike(input.search.toLowerCase())}` : undefined,
  );
  const { limit, offset } = window(input);
  return paged<TNamedRateRow>(
    db
      .select({ id: clients.id, name: clients.name, code: clients.code, billRate: bill.rate.rate })
      .from(clients)
      .leftJoin(bill.rate, bill.on(clients.orgId, clients.id))
      .where(where)
      .orderBy(asc(clients.name), asc(clients.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(clients).where(where),
    input,
  );
}

/** The firm's services (not archived), with their billing rates, by name. */
export async function serviceRates(db: TExecutor, scope: TScope, input: TListInput) {
  const bill = joinRate('service', 'bill_rate');
  const term = input.search ? escapeLike(input.search) : null;
  const where = and(
    eq(services.orgId, scope.orgId),
    isNull(services.archivedAt),
    term ? or(ilike(services.name, term), ilike(services.code, term)) : undefined,
  );
  const { limit, offset } = window(input);
  return paged<TNamedRateRow>(
    db
      .select({ id: services.id, name: services.name, code: services.code, billRate: bill.rate.rate })
      .from(services)
      .leftJoin(bill.rate, bill.on(services.orgId, services.id))
      .where(where)
      .orderBy(asc(services.name), asc(services.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(services).where(where),
    input,
  );
}

const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });

/** What a rate belongs to, by name; NOT_FOUND for another firm's record, or a client hidden from the caller. */
async function rateOwner(tx: TExecutor, scope: TScope, kind: TRateKind, refId: string): Promise<string> {
  if (kind === 'cost' || kind === 'member') {
    const [m] = await tx
      .select({ name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, refId)));
    if (!m) throw notFound('Member');
    return m.name;
  }
  if (kind === 'client') return (await visibleClient(tx, scope, refId)).name;
  if (kind === 'service') {
    const [s] = await tx
      .select({ name: services.name })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), eq(services.id, refId)));
    if (!s) throw notFound('Service');
    return s.name;
  }
  const [task] = await tx
    .select({ title: tasks.title, clientId: tasks.clientId })
    .from(tasks)
    .where(and(eq(tasks.orgId, scope.orgId), eq(tasks.id, refId)));
  if (!task) throw notFound('Task');
  // A task of a client the caller may not see is as absent as the client.
  if (task.clientId) {
    try {
      await visibleClient(tx, scope, task.clientId);
    } catch {
      throw notFound('Task');
    }
  }
  return task.title;
}

const rateRow = (orgId: string, kind: TRateKind, refId: string) =>
  and(eq(timesheetRates.orgId, orgId), eq(timesheetRates.kind, kind), eq(timesheetRates.refId, refId));

async function rateNow(tx: TExecutor, orgId: string, kind: TRateKind, refId: string, lock = false) {
  const q = tx
    .select({ rate: timesheetRates.rate })
    .from(timesheetRates)
    .where(rateRow(orgId, kind, refId));
  const [row] = lock ? await q.for('update') : await q;
  return row?.rate ?? null;
}

/** A task's own billing rate (null: its time bills at the service's, client's or member's). */
export async function taskRate(db: TExecutor, scope: TScope, taskId: string) {
  await rateOwner(db, scope, 'task', taskId);
  return { rate: await rateNow(db, scope.orgId, 'task', taskId) };
}

/**
 * Sets one rate, or clears it (null). Time already approved keeps the rate frozen on it; time not
 * yet approved is valued at the new one. Logged with the rate before and after.
 */
export async function setRate(db: TDb, scope: TScope, input: TRateSet, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const owner = await rateOwner(tx, scope, input.kind, input.refId);
    const before = await rateNow(tx, scope.orgId, input.kind, input.refId, true);
    if (before === input.rate) return { rate: input.rate };
    if (input.rate === null) {
      await tx.delete(timesheetRates).where(rateRow(scope.orgId, input.kind, input.refId));
    } else {
      await tx
        .insert(timesheetRates)
        .values({ orgId: scope.orgId, kind: input.kind, refId: input.refId, rate: input.rate })
        .onConflictDoUpdate({
          target: [timesheetRates.orgId, timesheetRates.kind, timesheetRates.refId],
          set: { rate: input.rate, updatedAt: new Date() },
        });
    }
    const [firm] = await tx
      .select({ country: orgs.country, timeZone: orgs.timeZone, currency: orgs.currency })
      .from(orgs)
      .where(eq(orgs.id, scope.orgId));
    const money = createFormatter(firm ?? { country: null, timeZone: 'UTC', currency: 'USD' });
    const what = `${owner}'s ${RATE_KIND_LABELS[input.kind].toLowerCase()}`;
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.rate',
      recordType: input.kind === 'cost' ? 'member' : input.kind,
      recordId: input.refId,
      summary:
        input.rate === null
          ? `Cleared ${what} (was ${money.moneyMinor(before)} an hour)`
          : `Set ${what} to ${money.moneyMinor(input.rate)} an hour`,
      changes: { [input.kind === 'cost' ? 'costRate' : 'billRate']: { from: before, to: input.rate } },
    });
    return { rate: input.rate };
  });
}
