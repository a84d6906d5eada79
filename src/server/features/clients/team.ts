import { TRPCError } from '@trpc/server';
import { and, asc, eq } from 'drizzle-orm';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientTeam, members } from '../../db/schema';
import { memberName } from '../../db/sql';
import { audit } from '../system-log';
import { visibleClient } from './visibility';

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

/** The member to put on a client's team (here and by the bulk assign): must exist and be active. */
export async function activeMember(tx: TExecutor, orgId: string, memberId: string) {
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
