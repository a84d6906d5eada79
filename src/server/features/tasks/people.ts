import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members, projects } from '../../db/schema';
import { memberName } from '../../db/sql';
import { visibleClient } from '../clients';

/** The named members, all active in this firm; BAD_REQUEST naming the problem otherwise. */
export async function activeMembers(tx: TExecutor, orgId: string, ids: readonly string[], what: string) {
  if (ids.length === 0) return [];
  const found = await tx
    .select({ id: members.id, name: memberName, status: members.status })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, [...ids])));
  const byId = new Map(found.map((m) => [m.id, m]));
  for (const id of ids) {
    const member = byId.get(id);
    if (!member)
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Choose the ${what} from the firm's members` });
    if (member.status !== 'active') {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `${member.name} is not an active member: choose someone else as ${what}`,
      });
    }
  }
  return ids.map((id) => byId.get(id) as { id: string; name: string });
}

export async function nameOf(tx: TExecutor, orgId: string, memberId: string): Promise<string> {
  const [row] = await tx
    .select({ name: memberName })
    .from(members)
    .where(and(eq(members.orgId, orgId), eq(members.id, memberId)))
    .limit(1);
  return row?.name ?? 'Someone';
}

/**
 * Where a task belongs: a project decides its client; a client must be one the caller may see;
 * a task for the client to do needs a client.
 */
export async function placement(
  tx: TExecutor,
  scope: TScope,
  input: { clientId: string | null; projectId: string | null; forClient: boolean },
) {
  let clientId = input.clientId;
  let project: { id: string; name: string } | null = null;
  if (input.projectId) {
    const [row] = await tx
      .select({ id: projects.id, name: projects.name, clientId: projects.clientId })
      .from(projects)
      .where(and(eq(projects.orgId, scope.orgId), eq(projects.id, input.projectId)))
      .limit(1);
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Project not found' });
    project = { id: row.id, name: row.name };
    clientId = row.clientId;
  }
  const client = clientId ? await visibleClient(tx, scope, clientId) : null;
  if (input.forClient && !client) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'A task for the client to do needs a client: choose one',
    });
  }
  return {
    clientId: client?.id ?? null,
    projectId: project?.id ?? null,
    client: client ? { id: client.id, name: client.name } : null,
    project,
  };
}
