import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, ilike, inArray, isNull, not, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  TClientGroupGetQuery,
  TClientGroupListQuery,
  ZClientCandidatesInput,
  ZClientGroupInput,
} from '../../../domain/client-groups';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientGroups, clients } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { fieldConflict } from '../../trpc/field-errors';
import { clientVisibility } from '../clients';

import { audit, diff } from '../system-log';

type TGroupValues = z.output<typeof ZClientGroupInput>;

export type TClientGroupRow = { id: string; name: string; description: string | null; clientCount: number };

const nameTaken = (name: string) => fieldConflict('name', `Another group is already called ${name}`);

// Drizzle leaves columns unqualified inside a select list, so the correlated subquery names its tables.
const clientCount = sql<number>`(select count(*)::int from clients c
  where c.org_id = "client_groups"."org_id" and c.group_id = "client_groups"."id" and c.archived_at is null)`;

export async function listGroups(
  db: TExecutor,
  scope: Pick<TScope, 'orgId'>,
  input: TClientGroupListQuery,
): Promise<TPage<TClientGroupRow>> {
  const where: SQL[] = [eq(clientGroups.orgId, scope.orgId)];
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(ilike(clientGroups.name, term), ilike(clientGroups.description, term));
    if (match) where.push(match);
  }
  const filter = and(...where);
  const dir = input.direction === 'asc' ? asc : desc;
  const order = input.sort === 'clients' ? dir(clientCount) : dir(clientGroups.name);
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: clientGroups.id,
        name: clientGroups.name,
        description: clientGroups.description,
        clientCount,
      })
      .from(clientGroups)
      .where(filter)
      .orderBy(order, asc(clientGroups.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(clientGroups).where(filter),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

async function groupOf(db: TExecutor, orgId: string, groupId: string, lock = false) {
  const q = db
    .select({ id: clientGroups.id, name: clientGroups.name, description: clientGroups.description })
    .from(clientGroups)
    .where(and(eq(clientGroups.orgId, orgId), eq(clientGroups.id, groupId)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Group not found' });
  return row;
}

export type TGroupClientRow = {
  id: string;
  name: string;
  code: string;
  email: string | null;
  status: string;
  archived: boolean;
};

/** The group and a page of its clients (those the caller may see). */
export async function getGroup(db: TExecutor, scope: TScope, input: TClientGroupGetQuery) {
  const group = await groupOf(db, scope.orgId, input.groupId);
  const where: SQL[] = [eq(clients.orgId, scope.orgId), eq(clients.groupId, group.id)];
  const visible = clientVisibility(scope);
  if (visible) where.push(visible);
  if (input.search) where.push(ilike(clients.searchText, escapeLike(input.search.toLowerCase())));
  const filter = and(...where);
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: clients.id,
        name: clients.name,
        code: clients.code,
        email: clients.email,
        status: clients.status,
        archivedAt: clients.archivedAt,
      })
      .from(clients)
      .where(filter)
      .orderBy(asc(clients.name), asc(clients.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(clients).where(filter),
  ]);
  const clientsPage: TPage<TGroupClientRow> = {
    rows: rows.map(({ archivedAt, ...r }) => ({ ...r, archived: !!archivedAt })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
  return { ...group, clients: clientsPage };
}

export async function createGroup(db: TDb, scope: TScope, input: TGroupValues, meta: TRequestMeta) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(clientGroups)
        .values({ orgId: scope.orgId, ...input })
        .returning({ id: clientGroups.id });
      if (!row) throw new Error('group not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'clientGroup.create',
        recordType: 'clientGroup',
        recordId: row.id,
        summary: `Added the client group ${input.name}`,
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateGroup(
  db: TDb,
  scope: TScope,
  groupId: string,
  input: TGroupValues,
  meta: TRequestMeta,
) {
  try {
    return await db.transaction(async (tx) => {
      const before = await groupOf(tx, scope.orgId, groupId, true);
      const changes = diff(before, input);
      if (!changes) return { id: groupId };
      await tx
        .update(clientGroups)
        .set({ ...input, updatedAt: new Date() })
        .where(and(eq(clientGroups.orgId, scope.orgId), eq(clientGroups.id, groupId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'clientGroup.update',
        recordType: 'clientGroup',
        recordId: groupId,
        summary: `Updated the client group ${input.name}`,
        changes,
      });
      return { id: groupId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function deleteGroup(db: TDb, scope: TScope, groupId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const group = await groupOf(tx, scope.orgId, groupId, true);
    // Archived clients count too: the group is still theirs.
    const [used] = await tx
      .select({ n: count() })
      .from(clients)
      .where(and(eq(clients.orgId, scope.orgId), eq(clients.groupId, groupId)));
    const n = used?.n ?? 0;
    if (n > 0) {
      throw new TRPCError({
        code: 'CONFLICT',
        message: `${group.name} still has ${n} client${n === 1 ? '' : 's'}: remove them from the group before deleting it`,
      });
    }
    await tx
      .delete(clientGroups)
      .where(and(eq(clientGroups.orgId, scope.orgId), eq(clientGroups.id, groupId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'clientGroup.delete',
      recordType: 'clientGroup',
      recordId: groupId,
      summary: `Deleted the client group ${group.name}`,
    });
    return { id: groupId };
  });
}

/** Clients the caller may see, by id; NOT_FOUND if any is missing, another firm's or hidden. */
async function visibleClients(tx: TExecutor, scope: TScope, ids: string[]) {
  const unique = [...new Set(ids)];
  const where: SQL[] = [eq(clients.orgId, scope.orgId), inArray(clients.id, unique)];
  const visible = clientVisibility(scope);
  if (visible) where.push(visible);
  const rows = await tx
    .select({ id: clients.id, name: clients.name, groupId: clients.groupId })
    .from(clients)
    .where(and(...where));
  if (rows.length !== unique.length) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
  return rows;
}

export async function addClients(
  db: TDb,
  scope: TScope,
  groupId: string,
  clientIds: string[],
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const group = await groupOf(tx, scope.orgId, groupId, true);
    const rows = await visibleClients(tx, scope, clientIds);
    const moving = rows.filter((r) => r.groupId !== groupId);
    if (!moving.length) return { added: 0 };
    await tx
      .update(clients)
      .set({ groupId, updatedAt: new Date() })
      .where(
        and(
          eq(clients.orgId, scope.orgId),
          inArray(
            clients.id,
            moving.map((r) => r.id),
          ),
        ),
      );
    await audit(tx, actorOf(scope, meta), {
      action: 'clientGroup.addClients',
      recordType: 'clientGroup',
      recordId: groupId,
      summary: `Added ${moving.length} client${moving.length === 1 ? '' : 's'} to ${group.name}: ${moving
        .slice(0, 5)
        .map((r) => r.name)
        .join(', ')}${moving.length > 5 ? '…' : ''}`,
      changes: { clients: { from: null, to: moving.map((r) => r.id) } },
    });
    return { added: moving.length };
  });
}

export async function removeClients(
  db: TDb,
  scope: TScope,
  groupId: string,
  clientIds: string[],
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const group = await groupOf(tx, scope.orgId, groupId, true);
    const rows = await visibleClients(tx, scope, clientIds);
    const leaving = rows.filter((r) => r.groupId === groupId);
    if (!leaving.length) return { removed: 0 };
    await tx
      .update(clients)
      .set({ groupId: null, updatedAt: new Date() })
      .where(
        and(
          eq(clients.orgId, scope.orgId),
          inArray(
            clients.id,
            leaving.map((r) => r.id),
          ),
        ),
      );
    await audit(tx, actorOf(scope, meta), {
      action: 'clientGroup.removeClients',
      recordType: 'clientGroup',
      recordId: groupId,
      summary: `Removed ${leaving.length} client${leaving.length === 1 ? '' : 's'} from ${group.name}: ${leaving
        .slice(0, 5)
        .map((r) => r.name)
        .join(', ')}${leaving.length > 5 ? '…' : ''}`,
      changes: { clients: { from: leaving.map((r) => r.id), to: null } },
    });
    return { removed: leaving.length };
  });
}

/** The add-clients picker: clients not in this group, by name or code. */
export async function candidates(
  db: TExecutor,
  scope: TScope,
  input: z.output<typeof ZClientCandidatesInput>,
) {
  await groupOf(db, scope.orgId, input.groupId);
  const where: SQL[] = [
    eq(clients.orgId, scope.orgId),
    isNull(clients.archivedAt),
    or(isNull(clients.groupId), not(eq(clients.groupId, input.groupId))) as SQL,
  ];
  const visible = clientVisibility(scope);
  if (visible) where.push(visible);
  if (input.search) where.push(ilike(clients.searchText, escapeLike(input.search.toLowerCase())));
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code, groupId: clients.groupId })
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(input.limit);
}
