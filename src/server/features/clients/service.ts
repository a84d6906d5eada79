import { TRPCError } from '@trpc/server';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { TClientBulk, TClientCreate, TClientInput } from '../../../domain/clients';
import { splitTaxIds } from '../../../domain/statutory/registrations';
import { actorOf, requirePermission, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientGroups, clients, clientTeam } from '../../db/schema';
import { audit, diff } from '../system-log';
import { emitWebhookEvent } from '../webhooks';
import { saveTaxIds } from './registered-tax-ids';
import { activeMember } from './team';
import { clientVisibility, visibleClient } from './visibility';

function columnsOf(input: TClientInput) {
  const { location, prospect, ...rest } = input;
  // An edit that does not name it keeps the client's prospect flag.
  return {
    ...rest,
    ...(prospect === undefined ? {} : { prospect }),
    lat: location?.lat ?? null,
    lng: location?.lng ?? null,
  };
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

export async function createClient(
  db: TDb,
  scope: TScope,
  { teamMemberIds = [], ...input }: TClientInput & Partial<Pick<TClientCreate, 'teamMemberIds'>>,
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      await checkGroup(tx, scope.orgId, input.groupId);
      await checkCode(tx, scope.orgId, input.code);
      // Putting people on a team is an edit of the client (clients.team.add asks for the same).
      if (teamMemberIds.length) requirePermission(scope, 'clients.edit');
      const team = [];
      for (const memberId of new Set(teamMemberIds)) team.push(await activeMember(tx, scope.orgId, memberId));
      const { registered, rest } = splitTaxIds(input.taxIds ?? []);
      const [created] = await tx
        .insert(clients)
        // PAN, TAN and GSTIN go to the registrations, their one home.
        .values({ orgId: scope.orgId, ...columnsOf(input), taxIds: rest })
        .returning({ id: clients.id, code: clients.code, name: clients.name });
      if (!created) throw new Error('client not created');
      if (registered.pan || registered.tan || registered.gstin)
        await saveTaxIds(tx, scope.orgId, created.id, input.taxIds ?? []);
      // A member limited to assigned clients keeps sight of the client they created.
      const memberIds = new Set(team.map((m) => m.id));
      if (scope.assignedClientsOnly) memberIds.add(scope.memberId);
      if (memberIds.size) {
        await tx
          .insert(clientTeam)
          .values([...memberIds].map((memberId) => ({ orgId: scope.orgId, clientId: created.id, memberId })));
      }
      await emitWebhookEvent(tx, scope.orgId, 'client.created', created);
      await audit(tx, actorOf(scope, meta), {
        action: 'client.create',
        recordType: 'client',
        recordId: created.id,
        summary: `Created client ${created.name} (${created.code})`,
      });
      for (const member of team) {
        await audit(tx, actorOf(scope, meta), {
          action: 'client.team.add',
          recordType: 'client',
          recordId: created.id,
          summary: `Added ${member.name} to ${created.name}’s team`,
          changes: { team: { from: null, to: member.name } },
        });
      }
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
      // PAN, TAN and GSTIN are saved to the registrations (their one home), the rest to tax_ids.
      const saved = await saveTaxIds(tx, scope.orgId, clientId, input.taxIds ?? []);
      const next = { ...columnsOf(input), taxIds: saved.rest };
      const changes = {
        ...diff(before as unknown as Record<string, unknown>, next),
        ...diff(saved.before, saved.after),
      };
      if (!Object.keys(changes).length) return { id: clientId, changed: false };
      await tx
        .update(clients)
        .set({ ...next, updatedAt: new Date() })
        .where(and(eq(clients.orgId, scope.orgId), eq(clients.id, clientId)));
      await emitWebhookEvent(tx, scope.orgId, 'client.updated', {
        id: clientId,
        code: input.code,
        name: input.name,
        changed: Object.keys(changes),
      });
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
