import { TRPCError } from '@trpc/server';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  exists,
  isNotNull,
  isNull,
  type SQL,
  sql,
} from 'drizzle-orm';
import { decodeCursor, encodeCursor, type TClientListQuery } from '../../../domain/clients';
import type { TPage } from '../../../domain/pagination';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientGroups, clientServices, clients, clientTeam } from '../../db/schema';
import { escapeLike, likeLiteral } from '../../db/sql';
import { clientVisibility } from './visibility';

export type TClientScope = Pick<
  TScope,
  'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'
>;

const fuzzy = (term: string) => term.length >= 3 && !/[0-9]/.test(term);

export type TClientRow = {
  id: string;
  code: string;
  name: string;
  type: (typeof clients.$inferSelect)['type'];
  status: (typeof clients.$inferSelect)['status'];
  email: string | null;
  phone: string | null;
  city: string | null;
  tags: string[];
  group: { id: string; name: string } | null;
  archivedAt: Date | null;
  createdAt: Date;
};

/** The list's filter without its search (also the export's): the firm, what this member may see, the filters. */
export function clientListWhere(
  db: TExecutor,
  scope: TClientScope,
  input: Omit<TClientListQuery, 'page' | 'pageSize' | 'cursor' | 'search'>,
) {
  const where: SQL[] = [eq(clients.orgId, scope.orgId)];
  const visible = clientVisibility(scope);
  if (visible) where.push(visible);
  if (input.archived === 'hide') where.push(isNull(clients.archivedAt));
  if (input.archived === 'only') where.push(isNotNull(clients.archivedAt));
  if (input.prospects === 'hide') where.push(eq(clients.prospect, false));
  if (input.prospects === 'only') where.push(eq(clients.prospect, true));
  if (input.type) where.push(eq(clients.type, input.type));
  if (input.status) where.push(eq(clients.status, input.status));
  if (input.groupId) where.push(eq(clients.groupId, input.groupId));
  if (input.tags?.length) where.push(arrayContains(clients.tags, input.tags));
  if (input.serviceId) {
    where.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(clientServices)
          .where(
            and(
              eq(clientServices.orgId, clients.orgId),
              eq(clientServices.clientId, clients.id),
              eq(clientServices.serviceId, input.serviceId),
            ),
          ),
      ),
    );
  }
  if (input.memberId) {
    where.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(clientTeam)
          .where(
            and(
              eq(clientTeam.orgId, clients.orgId),
              eq(clientTeam.clientId, clients.id),
              eq(clientTeam.memberId, input.memberId),
            ),
          ),
      ),
    );
  }
  return and(...where);
}

export async function listClients(
  db: TExecutor,
  scope: TClientScope,
  input: TClientListQuery,
): Promise<TPage<TClientRow> & { nextCursor: string | null }> {
  const filter = clientListWhere(db, scope, input);
  const term = input.search?.toLowerCase();
  if (term) return searchClients(db, filter, term, input);

  const sortColumn = { name: clients.name, code: clients.code, createdAt: clients.createdAt }[input.sort];
  const cursorValue =
    input.sort === 'createdAt'
      ? sql<string>`to_char(${clients.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
      : sql<string>`${sortColumn}`;
  const dir = input.direction === 'asc' ? asc : desc;
  const keyset = input.cursor ? decodeCursor(input.cursor) : null;
  if (input.cursor && !keyset) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This page link is not valid: go back to page 1' });
  }
  const pageWhere = keyset
    ? and(
        filter,
        input.sort === 'createdAt'
          ? sql`(${clients.createdAt}, ${clients.id}) ${sql.raw(input.direction === 'asc' ? '>' : '<')} (${keyset.v}::timestamptz, ${keyset.id}::uuid)`
          : sql`(${sortColumn}, ${clients.id}) ${sql.raw(input.direction === 'asc' ? '>' : '<')} (${keyset.v}, ${keyset.id}::uuid)`,
      )
    : filter;
  const offset = keyset ? 0 : (input.page - 1) * input.pageSize;

  const [rows, [totals]] = await Promise.all([
    selectRows(db, { cursorValue })
      .where(pageWhere)
      .orderBy(dir(sortColumn), dir(clients.id))
      .limit(input.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(clients).where(filter),
  ]);
  const last = rows.at(-1);
  return {
    rows: rows.map(toRow),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    nextCursor:
      last && rows.length === input.pageSize
        ? encodeCursor({ v: String(last.cursorValue), id: last.id })
        : null,
  };
}

function selectRows<TExtra extends Record<string, SQL | SQL.Aliased>>(db: TExecutor, extra: TExtra) {
  return db
    .select({
      id: clients.id,
      code: clients.code,
      name: clients.name,
      type: clients.type,
      status: clients.status,
      email: clients.email,
      phone: clients.phone,
      city: clients.city,
      tags: clients.tags,
      groupId: clientGroups.id,
      groupName: clientGroups.name,
      archivedAt: clients.archivedAt,
      createdAt: clients.createdAt,
      ...extra,
    })
    .from(clients)
    .leftJoin(clientGroups, and(eq(clientGroups.orgId, clients.orgId), eq(clientGroups.id, clients.groupId)));
}

function toRow<T extends { groupId: string | null; groupName: string | null }>({
  groupId,
  groupName,
  ...r
}: T) {
  const { cursorValue: _c, total: _t, ...rest } = r as typeof r & { cursorValue?: unknown; total?: unknown };
  return { ...rest, group: groupId && groupName ? { id: groupId, name: groupName } : null };
}

/**
 * A search pages by offset in order of relevance, and counts its matches in the same scan (a
 * window count: the sort reads every match anyway). Substring matches come first; only when
 * there are none does a name-like term (three letters or more, no digits) fall back to trigram
 * word similarity, which forgives typos ("Mehtta" finds "Mehta") but costs a similarity per
 * candidate. Codes, numbers and identifiers match as typed, so "C003" never finds "C001".
 */
async function searchClients(
  db: TExecutor,
  filter: SQL | undefined,
  term: string,
  input: TClientListQuery,
): Promise<TPage<TClientRow> & { nextCursor: string | null }> {
  if (input.cursor) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'A search pages by number, not by cursor' });
  }
  const offset = (input.page - 1) * input.pageSize;
  const total = sql<number>`(count(*) over ())::int`.as('total');
  const page = (where: SQL | undefined, ...order: SQL[]) =>
    selectRows(db, { total })
      .where(where)
      .orderBy(...order, asc(clients.name), asc(clients.id))
      .limit(input.pageSize)
      .offset(offset);

  // A PAN, TAN or GSTIN typed whole finds its client through the registrations (their one home);
  // only a term shaped like one pays for that look-up.
  const identifier = term.replace(/\s+/g, '').toUpperCase();
  const registered = /^[A-Z0-9]{10,15}$/.test(identifier)
    ? sql` or ${clients.id} in (select r.client_id from client_registrations r where r.org_id = ${clients.orgId}
        and (r.pan = ${identifier} or r.tan = ${identifier} or r.gstin = ${identifier}))`
    : sql``;
  const substring = and(filter, sql`(${clients.searchText} ilike ${escapeLike(term)}${registered})`);
  let rows = await page(substring, sql`(${clients.searchText} like ${`${likeLiteral(term)}%`}) desc`);
  if (rows.length === 0 && offset > 0) {
    // Past the last page: the count still tells the screen where the matches are.
    const [beyond] = await db.select({ total: count() }).from(clients).where(substring);
    if (beyond && beyond.total > 0)
      return { rows: [], total: beyond.total, page: input.page, pageSize: input.pageSize, nextCursor: null };
  }
  if (rows.length === 0 && fuzzy(term)) {
    rows = await page(
      and(filter, sql`${term} <% ${clients.searchText}`),
      sql`word_similarity(${term}, ${clients.searchText}) desc`,
    );
  }
  return {
    rows: rows.map(toRow),
    total: rows[0]?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    nextCursor: null,
  };
}
