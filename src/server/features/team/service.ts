import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { TPage } from '../../../domain/pagination';
import { OWNER_ROLE_NAME, type TChangeRole, type TTeamListQuery } from '../../../domain/team';
import { actorOf, refreshMfaRuleSince, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { members, roles } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { audit } from '../system-log';

export type TTeamMemberRow = {
  id: string;
  name: string;
  email: string;
  designation: string | null;
  picture: string | null;
  role: { id: string; name: string };
  status: 'invited' | 'active' | 'disabled';
  isOwner: boolean;
  lastActiveAt: Date | null;
};

const fullName = sql<string>`trim(${members.firstName} || ' ' || ${members.lastName})`;
export const displayName = (m: { firstName: string; lastName: string; email: string }) =>
  `${m.firstName} ${m.lastName}`.trim() || m.email;

export async function listMembers(
  db: TExecutor,
  scope: Pick<TScope, 'orgId'>,
  input: TTeamListQuery,
): Promise<TPage<TTeamMemberRow>> {
  const where: SQL[] = [eq(members.orgId, scope.orgId)];
  if (input.status) where.push(eq(members.status, input.status));
  if (input.roleId) where.push(eq(members.roleId, input.roleId));
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(ilike(fullName, term), ilike(members.email, term));
    if (match) where.push(match);
  }
  const filter = and(...where);
  const dir = input.direction === 'asc' ? asc : desc;
  const order: SQL[] = {
    name: [dir(members.firstName), dir(members.lastName)],
    email: [dir(members.email)],
    role: [dir(roles.name)],
    status: [dir(members.status)],
    // Never-active members go last whichever way the column is sorted.
    lastActiveAt: [sql`${members.lastActiveAt} ${sql.raw(input.direction)} nulls last`],
  }[input.sort];
  const offset = (input.page - 1) * input.pageSize;
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: members.id,
        firstName: members.firstName,
        lastName: members.lastName,
        email: members.email,
        designation: members.designation,
        picture: members.picture,
        roleId: roles.id,
        roleName: roles.name,
        status: members.status,
        isOwner: members.isOwner,
        lastActiveAt: members.lastActiveAt,
      })
      .from(members)
      .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
      .where(filter)
      // The id breaks ties so pages never repeat or skip a row.
      .orderBy(...order, asc(members.id))
      .limit(input.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(members).where(filter),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: displayName(r),
      email: r.email,
      designation: r.designation,
      picture: r.picture,
      role: { id: r.roleId, name: r.roleName },
      status: r.status,
      isOwner: r.isOwner,
      lastActiveAt: r.lastActiveAt,
    })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** The roles a member can be invited with or moved to (the Owner role goes with ownership only). */
export async function assignableRoles(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  return db
    .select({ id: roles.id, name: roles.name, description: roles.description })
    .from(roles)
    .where(and(eq(roles.orgId, scope.orgId), ne(roles.name, OWNER_ROLE_NAME)))
    .orderBy(asc(roles.name));
}

/** A role of this firm that may be given to a member; NOT_FOUND for another firm's or a missing one. */
export async function assignableRole(db: TExecutor, orgId: string, roleId: string) {
  const [role] = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(and(eq(roles.orgId, orgId), eq(roles.id, roleId)))
    .limit(1);
  if (!role) throw new TRPCError({ code: 'NOT_FOUND', message: 'Role not found' });
  if (role.name === OWNER_ROLE_NAME) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'The Owner role belongs to the firm’s owner: transfer ownership instead',
    });
  }
  return role;
}

/** The member, locked for the rest of the transaction; NOT_FOUND for another firm's or a missing one. */
export async function memberForUpdate(tx: TExecutor, orgId: string, memberId: string) {
  const [row] = await tx
    .select({
      id: members.id,
      sub: members.sub,
      email: members.email,
      firstName: members.firstName,
      lastName: members.lastName,
      roleId: members.roleId,
      roleName: roles.name,
      status: members.status,
      isOwner: members.isOwner,
    })
    .from(members)
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(and(eq(members.orgId, orgId), eq(members.id, memberId)))
    .limit(1)
    .for('update', { of: members });
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  return row;
}

export async function changeRole(db: TDb, scope: TScope, input: TChangeRole, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const member = await memberForUpdate(tx, scope.orgId, input.memberId);
    const role = await assignableRole(tx, scope.orgId, input.roleId);
    if (member.isOwner) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'The owner’s role cannot be changed' });
    }
    if (member.id === scope.memberId) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You cannot change your own role' });
    }
    if (member.roleId === role.id) return { id: member.id, role };
    await tx
      .update(members)
      .set({ roleId: role.id })
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, member.id)));
    // A role the firm's MFA rule names starts (or ends) the member's grace.
    await refreshMfaRuleSince(tx, scope.orgId);
    await audit(tx, actorOf(scope, meta), {
      action: 'member.changeRole',
      recordType: 'member',
      recordId: member.id,
      summary: `Changed ${displayName(member)}’s role from ${member.roleName} to ${role.name}`,
      changes: { role: { from: member.roleName, to: role.name } },
    });
    return { id: member.id, role };
  });
}

export async function deactivateMember(db: TDb, scope: TScope, memberId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const member = await memberForUpdate(tx, scope.orgId, memberId);
    if (member.isOwner) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'The owner cannot be deactivated' });
    }
    if (member.id === scope.memberId) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You cannot deactivate yourself' });
    }
    if (member.status === 'disabled') return { id: member.id, status: member.status };
    await tx
      .update(members)
      .set({ status: 'disabled' })
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, member.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'member.deactivate',
      recordType: 'member',
      recordId: member.id,
      summary: `Deactivated ${displayName(member)}`,
      changes: { status: { from: member.status, to: 'disabled' } },
    });
    return { id: member.id, status: 'disabled' as const };
  });
}

export async function reactivateMember(db: TDb, scope: TScope, memberId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const member = await memberForUpdate(tx, scope.orgId, memberId);
    if (member.status === 'active') return { id: member.id, status: member.status };
    // One firm per person: someone who has since joined another firm cannot be active in two.
    if (member.sub) {
      const [elsewhere] = await tx
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.sub, member.sub), eq(members.status, 'active'), ne(members.orgId, scope.orgId)))
        .limit(1);
      if (elsewhere) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${displayName(member)} has since joined another firm and cannot be reactivated here`,
        });
      }
    }
    await tx
      .update(members)
      .set({ status: 'active' })
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, member.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'member.reactivate',
      recordType: 'member',
      recordId: member.id,
      summary: `Reactivated ${displayName(member)}`,
      changes: { status: { from: member.status, to: 'active' } },
    });
    return { id: member.id, status: 'active' as const };
  });
}

/**
 * The owner hands the firm to another active member: they take the owner flag and the Owner role,
 * and the former owner becomes an Admin (or takes the new owner's former role if there is no Admin).
 */
export async function transferOwnership(db: TDb, scope: TScope, memberId: string, meta: TRequestMeta) {
  if (!scope.isOwner) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Only the owner can transfer ownership' });
  }
  return db.transaction(async (tx) => {
    const target = await memberForUpdate(tx, scope.orgId, memberId);
    const owner = await memberForUpdate(tx, scope.orgId, scope.memberId);
    if (target.id === owner.id) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'You already own this firm' });
    }
    if (target.status !== 'active') {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Ownership can only go to an active member: reactivate them first',
      });
    }
    const named = await tx
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(and(eq(roles.orgId, scope.orgId), or(eq(roles.name, OWNER_ROLE_NAME), eq(roles.name, 'Admin'))));
    const ownerRole = named.find((r) => r.name === OWNER_ROLE_NAME) ?? {
      id: owner.roleId,
      name: owner.roleName,
    };
    const formerOwnerRole = named.find((r) => r.name === 'Admin') ?? {
      id: target.roleId,
      name: target.roleName,
    };
    await tx
      .update(members)
      .set({ isOwner: false, roleId: formerOwnerRole.id })
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, owner.id)));
    await tx
      .update(members)
      .set({ isOwner: true, roleId: ownerRole.id })
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, target.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'member.transferOwnership',
      recordType: 'member',
      recordId: target.id,
      summary: `Transferred ownership of the firm from ${displayName(owner)} to ${displayName(target)}`,
      changes: {
        owner: { from: displayName(owner), to: displayName(target) },
        [`role of ${displayName(target)}`]: { from: target.roleName, to: ownerRole.name },
        [`role of ${displayName(owner)}`]: { from: owner.roleName, to: formerOwnerRole.name },
      },
    });
    return { ownerId: target.id };
  });
}
