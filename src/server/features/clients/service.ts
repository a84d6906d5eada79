import { TRPCError } from '@trpc/server';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  ne,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  decodeCursor,
  encodeCursor,
  type TClientBulk,
  type TClientInput,
  type TClientListQuery,
} from '../../../domain/clients';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientGroups, clientServices, clients, clientTeam, members } from '../../db/schema';
import { escapeLike, likeLiteral, memberName, rowsOf } from '../../db/sql';
import { audit, diff } from '../system-log';
import { clientVisibility, visibleClient } from './visibility';

type TClientScope = Pick<TScope, 'orgId' | 'memberId' | 'isOwner' | 'permissions' | 'assignedClientsOnly'>;

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

  const substring = and(filter, sql`${clients.searchText} ilike ${escapeLike(term)}`);
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

export async function clientTeamOf(db: TExecutor, orgId: string, clientId: string) {
  return db
    .select({
      memberId: members.id,
      name: memberName,
      email: members.email,
      picture: members.picture,
      designation: members.designation,
      status: members.status,
      responsibility: clientTeam.responsibility,
      addedAt: clientTeam.createdAt,
    })
    .from(clientTeam)
    .innerJoin(members, and(eq(members.orgId, clientTeam.orgId), eq(members.id, clientTeam.memberId)))
    .where(and(eq(clientTeam.orgId, orgId), eq(clientTeam.clientId, clientId)))
    .orderBy(asc(members.firstName), asc(members.lastName), asc(members.id));
}

export async function getClient(db: TExecutor, scope: TClientScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const [group, team, [services]] = await Promise.all([
    client.groupId
      ? db
          .select({ id: clientGroups.id, name: clientGroups.name })
          .from(clientGroups)
          .where(and(eq(clientGroups.orgId, scope.orgId), eq(clientGroups.id, client.groupId)))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    clientTeamOf(db, scope.orgId, clientId),
    db
      .select({ total: count() })
      .from(clientServices)
      .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.clientId, clientId))),
  ]);
  const { lat, lng, searchText: _s, ...rest } = client;
  return {
    ...rest,
    location: lat != null && lng != null ? { lat, lng } : null,
    group,
    team,
    counts: { team: team.length, services: services?.total ?? 0 },
  };
}
export type TClientDetail = Awaited<ReturnType<typeof getClient>>;

function columnsOf(input: TClientInput) {
  const { location, ...rest } = input;
  return { ...rest, lat: location?.lat ?? null, lng: location?.lng ?? null };
}

async function checkGroup(tx: TExecutor, orgId: string, groupId: string | null) {
  if (!groupId) return null;
  const [group] = await tx
    .select({ id: clientGroups.id, name: clientGroups.name })
    .from(clientGroups)
    .where(and(eq(clientGroups.orgId, orgId), eq(clientGroups.id, groupId)))
    .limit(1);
  if (!group) throw new TRPCError({ code: 'NOT_FOUND', message: 'Group not found' });
  return group;
}

async function checkCode(tx: TExecutor, orgId: string, code: string, exceptId?: string) {
  const where = [eq(clients.orgId, orgId), sql`lower(${clients.code}) = lower(${code})`];
  if (exceptId) where.push(ne(clients.id, exceptId));
  const [taken] = await tx
    .select({ name: clients.name, code: clients.code })
    .from(clients)
    .where(and(...where))
    .limit(1);
  if (taken) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: `The code ${taken.code} is already used by ${taken.name}: choose another code`,
    });
  }
}

const conflictOnCode = (code: string) => (error: unknown) => {
  if (isUniqueViolation(error)) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: `The code ${code} is already used: choose another code`,
    });
  }
  throw error;
};

export async function createClient(db: TDb, scope: TScope, input: TClientInput, meta: TRequestMeta) {
  return db
    .transaction(async (tx) => {
      await checkGroup(tx, scope.orgId, input.groupId);
      await checkCode(tx, scope.orgId, input.code);
      const [created] = await tx
        .insert(clients)
        .values({ orgId: scope.orgId, ...columnsOf(input) })
        .returning({ id: clients.id, code: clients.code, name: clients.name });
      if (!created) throw new Error('client not created');
      // A member limited to assigned clients keeps sight of the client they created.
      if (scope.assignedClientsOnly) {
        await tx
          .insert(clientTeam)
          .values({ orgId: scope.orgId, clientId: created.id, memberId: scope.memberId });
      }
      await audit(tx, actorOf(scope, meta), {
        action: 'client.create',
        recordType: 'client',
        recordId: created.id,
        summary: `Created client ${created.name} (${created.code})`,
      });
      return created;
    })
    .catch(conflictOnCode(input.code));
}

export async function updateClient(
  db: TDb,
  scope: TScope,
  clientId: string,
  input: TClientInput,
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const before = await visibleClient(tx, scope, clientId, true);
      await checkGroup(tx, scope.orgId, input.groupId);
      if (input.code !== before.code) {
        await checkCode(tx, scope.orgId, input.code, clientId);
      }
      const next = columnsOf(input);
      const changes = diff(before as unknown as Record<string, unknown>, next);
      if (!changes) return { id: clientId, changed: false };
      await tx
        .update(clients)
        .set({ ...next, updatedAt: new Date() })
        .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'client.update',
        recordType: 'client',
        recordId: clientId,
        summary: `Updated client ${input.name} (${input.code}): ${Object.keys(changes).join(', ')}`,
        changes,
      });
      return { id: clientId, changed: true };
    })
    .catch(conflictOnCode(input.code));
}

export async function setArchived(
  db: TDb,
  scope: TScope,
  clientId: string,
  archived: boolean,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, clientId, true);
    if (Boolean(client.archivedAt) === archived) return { id: clientId, archivedAt: client.archivedAt };
    const archivedAt = archived ? new Date() : null;
    await tx
      .update(clients)
      .set({ archivedAt, updatedAt: new Date() })
      .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId)));
    await audit(tx, actorOf(scope, meta), {
      action: archived ? 'client.archive' : 'client.restore',
      recordType: 'client',
      recordId: clientId,
      summary: `${archived ? 'Archived' : 'Restored'} client ${client.name} (${client.code})`,
      changes: { archivedAt: { from: client.archivedAt, to: archivedAt } },
    });
    return { id: clientId, archivedAt };
  });
}

async function activeMember(tx: TExecutor, orgId: string, memberId: string) {
  const [member] = await tx
    .select({ id: members.id, name: memberName, status: members.status })
    .from(members)
    .where(and(eq(members.orgId, orgId), eq(members.id, memberId)))
    .limit(1);
  if (!member) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  if (member.status === 'disabled') {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `${member.name} is deactivated: reactivate them first`,
    });
  }
  return member;
}

/** One statement per action over the chosen clients this member may see; one audit row with the count. */
export async function bulkUpdate(db: TDb, scope: TScope, input: TClientBulk, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.ids)];
    const visible = and(eq(clients.orgId, scope.orgId), inArray(clients.id, ids), clientVisibility(scope));
    const { action } = input;
    let affected = 0;
    let summary: string;
    let changes: Record<string, { from: unknown; to: unknown }> | null = null;
    const now = new Date();
    switch (action.kind) {
      case 'assignMember': {
        const member = await activeMember(tx, scope.orgId, action.memberId);
        const inserted = await tx
          .insert(clientTeam)
          .select(
            tx
              .select({
                orgId: clients.orgId,
                clientId: clients.id,
                memberId: sql<string>`${member.id}::uuid`.as('member_id'),
                responsibility: sql<string | null>`null`.as('responsibility'),
                createdAt: sql<Date>`now()`.as('created_at'),
              })
              .from(clients)
              .where(visible),
          )
          .onConflictDoNothing()
          .returning({ clientId: clientTeam.clientId });
        affected = inserted.length;
        summary = `Assigned ${member.name} to ${affected} client${affected === 1 ? '' : 's'}`;
        changes = { team: { from: null, to: member.name } };
        break;
      }
      case 'setGroup': {
        const group = await checkGroup(tx, scope.orgId, action.groupId);
        const updated = await tx
          .update(clients)
          .set({ groupId: group?.id ?? null, updatedAt: now })
          .where(visible)
          .returning({ id: clients.id });
        affected = updated.length;
        summary = group
          ? `Moved ${affected} client${affected === 1 ? '' : 's'} to the group ${group.name}`
          : `Removed ${affected} client${affected === 1 ? '' : 's'} from their group`;
        changes = { group: { from: null, to: group?.name ?? null } };
        break;
      }
      case 'addTag': {
        const updated = await tx
          .update(clients)
          .set({ tags: sql`array_append(${clients.tags}, ${action.tag}::text)`, updatedAt: now })
          .where(and(visible, sql`not (${action.tag}::text = any(${clients.tags}))`))
          .returning({ id: clients.id });
        affected = updated.length;
        summary = `Tagged ${affected} client${affected === 1 ? '' : 's'} “${action.tag}”`;
        changes = { tags: { from: null, to: `+${action.tag}` } };
        break;
      }
      case 'removeTag': {
        const updated = await tx
          .update(clients)
          .set({ tags: sql`array_remove(${clients.tags}, ${action.tag}::text)`, updatedAt: now })
          .where(and(visible, sql`${action.tag}::text = any(${clients.tags})`))
          .returning({ id: clients.id });
        affected = updated.length;
        summary = `Removed the tag “${action.tag}” from ${affected} client${affected === 1 ? '' : 's'}`;
        changes = { tags: { from: `-${action.tag}`, to: null } };
        break;
      }
      case 'setStatus': {
        const updated = await tx
          .update(clients)
          .set({ status: action.status, updatedAt: now })
          .where(and(visible, ne(clients.status, action.status)))
          .returning({ id: clients.id });
        affected = updated.length;
        summary = `Set ${affected} client${affected === 1 ? '' : 's'} to ${action.status}`;
        changes = { status: { from: null, to: action.status } };
        break;
      }
    }
    await audit(tx, actorOf(scope, meta), {
      action: `client.bulk.${action.kind}`,
      recordType: 'client',
      recordId: null,
      summary,
      changes: { ...changes, count: { from: null, to: affected } },
    });
    return { affected };
  });
}

export async function addTeamMember(
  db: TDb,
  scope: TScope,
  input: { clientId: string; memberId: string; responsibility: string | null },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId, true);
    const member = await activeMember(tx, scope.orgId, input.memberId);
    const inserted = await tx
      .insert(clientTeam)
      .values({
        orgId: scope.orgId,
        clientId: client.id,
        memberId: member.id,
        responsibility: input.responsibility,
      })
      .onConflictDoNothing()
      .returning({ memberId: clientTeam.memberId });
    if (!inserted.length) {
      throw new TRPCError({ code: 'CONFLICT', message: `${member.name} is already on this client’s team` });
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'client.team.add',
      recordType: 'client',
      recordId: client.id,
      summary: `Added ${member.name} to ${client.name}’s team${input.responsibility ? ` as ${input.responsibility}` : ''}`,
      changes: { team: { from: null, to: member.name } },
    });
    return { memberId: member.id };
  });
}

export async function updateResponsibility(
  db: TDb,
  scope: TScope,
  input: { clientId: string; memberId: string; responsibility: string | null },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId, true);
    const [row] = await tx
      .select({ responsibility: clientTeam.responsibility, name: memberName })
      .from(clientTeam)
      .innerJoin(members, and(eq(members.orgId, clientTeam.orgId), eq(members.id, clientTeam.memberId)))
      .where(
        and(
          eq(clientTeam.orgId, scope.orgId),
          eq(clientTeam.clientId, client.id),
          eq(clientTeam.memberId, input.memberId),
        ),
      )
      .limit(1);
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'This member is not on the client’s team' });
    if (row.responsibility === input.responsibility) return { memberId: input.memberId };
    await tx
      .update(clientTeam)
      .set({ responsibility: input.responsibility })
      .where(
        and(
          eq(clientTeam.orgId, scope.orgId),
          eq(clientTeam.clientId, client.id),
          eq(clientTeam.memberId, input.memberId),
        ),
      );
    await audit(tx, actorOf(scope, meta), {
      action: 'client.team.updateResponsibility',
      recordType: 'client',
      recordId: client.id,
      summary: `Changed ${row.name}’s responsibility for ${client.name}`,
      changes: { responsibility: { from: row.responsibility, to: input.responsibility } },
    });
    return { memberId: input.memberId };
  });
}

export async function removeTeamMember(
  db: TDb,
  scope: TScope,
  input: { clientId: string; memberId: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId, true);
    const [member] = await tx
      .select({ name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, input.memberId)))
      .limit(1);
    const removed = await tx
      .delete(clientTeam)
      .where(
        and(
          eq(clientTeam.orgId, scope.orgId),
          eq(clientTeam.clientId, client.id),
          eq(clientTeam.memberId, input.memberId),
        ),
      )
      .returning({ memberId: clientTeam.memberId });
    if (!member || !removed.length) {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'This member is not on the client’s team' });
    }
    await audit(tx, actorOf(scope, meta), {
      action: 'client.team.remove',
      recordType: 'client',
      recordId: client.id,
      summary: `Removed ${member.name} from ${client.name}’s team`,
      changes: { team: { from: member.name, to: null } },
    });
    return { memberId: input.memberId };
  });
}

/** The firm's active members, for the team and bulk-assign pickers. */
export async function assignableMembers(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  return db
    .select({ id: members.id, name: memberName, email: members.email })
    .from(members)
    .where(and(eq(members.orgId, scope.orgId), eq(members.status, 'active')))
    .orderBy(asc(members.firstName), asc(members.lastName))
    .limit(500);
}

/** The firm's groups for the filter and pickers (the groups screen belongs to the catalogue helper). */
export async function groupOptions(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  return db
    .select({ id: clientGroups.id, name: clientGroups.name })
    .from(clientGroups)
    .where(eq(clientGroups.orgId, scope.orgId))
    .orderBy(asc(clientGroups.name))
    .limit(1000);
}

/** The firm's tags in use, for the tag filter and bulk tagging. */
export async function tagOptions(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  const rows = await db.execute<{ tag: string }>(
    sql`select distinct unnest(${clients.tags}) as tag from ${clients} where ${clients.orgId} = ${scope.orgId} order by tag limit 500`,
  );
  return rowsOf<{ tag: string }>(rows).map((r) => r.tag);
}
