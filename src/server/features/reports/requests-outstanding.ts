import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { todayIn } from '../../../domain/days';
import { OPEN_REQUEST_STATUSES, REQUEST_STATUS_LABELS } from '../../../domain/requests/constants';
import { AGE_BANDS, ageBandOf, type ZRequestsOutstanding } from '../../../domain/requests/report';
import { requestDisplayStatus } from '../../../domain/requests/rules';
import { requirePermission, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clients, members, orgs, requests } from '../../db/schema';
import { escapeLike, memberName } from '../../db/sql';
import { clientVisibility } from '../clients';
import { num } from './scope';

// Requests outstanding (issue 36, item 7): every open request (sent and not yet complete or
// cancelled) the member may see, counted by client, by age since it was sent (in the firm's days)
// and by who sent it. The open requests are a firm's few hundred, read through the partial index
// of open requests.

type TInput = z.output<typeof ZRequestsOutstanding>;

/** The firm's today and the age of a request in its days, as SQL. */
async function firmDay(db: TExecutor, orgId: string) {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId));
  const timeZone = org?.timeZone ?? 'UTC';
  const today = todayIn(timeZone);
  const age = sql<number>`(${today}::date - (coalesce(${requests.sentAt}, ${requests.createdAt}) at time zone ${timeZone})::date)`;
  return { today, age, timeZone };
}

function bands(age: SQL<number>) {
  return {
    week: sql<number>`count(*) filter (where ${age} <= 7)::int`,
    month: sql<number>`count(*) filter (where ${age} between 8 and 30)::int`,
    twoMonths: sql<number>`count(*) filter (where ${age} between 31 and 60)::int`,
    older: sql<number>`count(*) filter (where ${age} > 60)::int`,
  };
}

function openWhere(scope: TScope, input: Pick<TInput, 'senderId' | 'search'>) {
  const term = input.search?.trim();
  return and(
    eq(requests.orgId, scope.orgId),
    inArray(requests.status, [...OPEN_REQUEST_STATUSES]),
    clientVisibility(scope, requests.clientId),
    input.senderId ? eq(requests.createdBy, input.senderId) : undefined,
    term ? sql`${clients.name} ilike ${escapeLike(term)}` : undefined,
  );
}

const clientJoin = and(eq(clients.orgId, requests.orgId), eq(clients.id, requests.clientId));

export async function requestsOutstanding(db: TExecutor, scope: TScope, input: TInput) {
  const { today, age } = await firmDay(db, scope.orgId);
  const where = openWhere(scope, input);
  const waiting = sql<number>`count(*) filter (where ${requests.status} in ('sent', 'in_progress', 'returned'))::int`;
  const overdue = sql<number>`count(*) filter (where ${requests.status} in ('sent', 'in_progress', 'returned') and ${requests.dueDate} < ${today})::int`;
  const open = sql<number>`count(*)::int`;
  const oldest = sql<number>`max(${age})::int`;
  const dir = input.direction === 'asc' ? asc : desc;
  const order =
    input.sort === 'name'
      ? [dir(clients.name), asc(clients.id)]
      : input.sort === 'oldest'
        ? [dir(oldest), asc(clients.name), asc(clients.id)]
        : input.sort === 'overdue'
          ? [dir(overdue), asc(clients.name), asc(clients.id)]
          : [dir(open), asc(clients.name), asc(clients.id)];
  const [rows, [totals], senders] = await Promise.all([
    db
      .select({
        id: clients.id,
        code: clients.code,
        name: clients.name,
        open,
        waiting,
        overdue,
        oldestDays: oldest,
        ...bands(age),
      })
      .from(requests)
      .innerJoin(clients, clientJoin)
      .where(where)
      .groupBy(clients.id, clients.code, clients.name)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db
      .select({
        clients: sql<number>`count(distinct ${requests.clientId})::int`,
        open,
        waiting,
        overdue,
        ...bands(age),
      })
      .from(requests)
      .innerJoin(clients, clientJoin)
      .where(where),
    // By sender: the firm's members are few; a request whose sender left counts as "Nobody now".
    db
      .select({
        memberId: requests.createdBy,
        name: sql<string | null>`max(${memberName})`,
        open,
        waiting,
        overdue,
        oldestDays: oldest,
        ...bands(age),
      })
      .from(requests)
      .innerJoin(clients, clientJoin)
      .leftJoin(members, and(eq(members.orgId, requests.orgId), eq(members.id, requests.createdBy)))
      .where(where)
      .groupBy(requests.createdBy)
      .orderBy(desc(open)),
  ]);
  return {
    today,
    rows,
    total: num(totals?.clients),
    page: input.page,
    pageSize: input.pageSize,
    totals: {
      open: num(totals?.open),
      waiting: num(totals?.waiting),
      overdue: num(totals?.overdue),
      week: num(totals?.week),
      month: num(totals?.month),
      twoMonths: num(totals?.twoMonths),
      older: num(totals?.older),
    },
    senders: senders.map((s) => ({ ...s, name: s.name ?? 'No longer in the firm' })),
  };
}

/** Every open request the filters cover, one row each, oldest first: what the export writes. */
export async function outstandingRequestRows(db: TExecutor, scope: TScope, input: TInput) {
  const { today, age, timeZone } = await firmDay(db, scope.orgId);
  const rows = await db
    .select({
      clientCode: clients.code,
      clientName: clients.name,
      title: requests.title,
      status: requests.status,
      dueDate: requests.dueDate,
      sentAt: requests.sentAt,
      sender: memberName,
      senderLeft: sql<boolean>`${members.id} is null`,
      ageDays: sql<number>`${age}::int`,
    })
    .from(requests)
    .innerJoin(clients, clientJoin)
    .leftJoin(members, and(eq(members.orgId, requests.orgId), eq(members.id, requests.createdBy)))
    .where(openWhere(scope, input))
    .orderBy(desc(age), asc(clients.name), asc(requests.id));
  return { today, timeZone, rows };
}

/** The export: one row per open request, with its client, age band and sender. */
export async function requestsTable(db: TDb, scope: TScope, input: TInput) {
  requirePermission(scope, 'requests.view');
  const r = await outstandingRequestRows(db, scope, input);
  return {
    title: 'Requests outstanding',
    headers: ['Code', 'Client', 'Request', 'Status', 'Sent by', 'Sent on', 'Days since sent', 'Age', 'Due'],
    rows: r.rows.map((x) => [
      x.clientCode,
      x.clientName,
      x.title,
      REQUEST_STATUS_LABELS[requestDisplayStatus(x, r.today)],
      x.senderLeft ? 'No longer in the firm' : x.sender,
      x.sentAt ? todayIn(r.timeZone, x.sentAt) : '',
      String(x.ageDays),
      AGE_BANDS.find((b) => b.key === ageBandOf(x.ageDays))?.label ?? '',
      x.dueDate,
    ]),
    count: r.rows.length,
  };
}
