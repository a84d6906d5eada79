import { TRPCError } from '@trpc/server';
import { and, asc, count, eq, ilike, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { TPage } from '../../../domain/pagination';
import { hasPermission } from '../../../domain/permissions';
import { OWNER_ROLE_NAME, roleGrants, type TRoleUpdate, type TRoleValues } from '../../../domain/roles';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { memberInvites, members, roles } from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { audit, diff } from '../system-log';

export type TRoleRow = {
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
  assignedClientsOnly: boolean;
  isOwnerRole: boolean;
  memberCount: number;
  openInviteCount: number;
  updatedAt: Date;
};

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'That role does not exist' });

// Qualified by hand: inside a subquery, drizzle's bare column names would bind to the inner table.
const memberCount = sql<number>`(select count(*)::int from ${members} m where m.org_id = "roles"."org_id" and m.role_id = "roles"."id")`;
const openInviteCount = sql<number>`(select count(*)::int from ${memberInvites} i where i.org_id = "roles"."org_id" and i.role_id = "roles"."id" and i.accepted_at is null and i.revoked_at is null)`;

const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  permissions: roles.permissions,
  assignedClientsOnly: roles.assignedClientsOnly,
  isOwnerRole: sql<boolean>`${roles.name} = ${OWNER_ROLE_NAME}`,
  memberCount,
  openInviteCount,
  updatedAt: roles.updatedAt,
};

export async function listRoles(
  db: TExecutor,
  scope: Pick<TScope, 'orgId'>,
  input: { page: number; pageSize: number; search?: string },
): Promise<TPage<TRoleRow>> {
  const where = [eq(roles.orgId, scope.orgId)];
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(ilike(roles.name, term), ilike(roles.description, term));
    if (match) where.push(match);
  }
  const filter = and(...where);
  const [rows, [totals]] = await Promise.all([
    db
      .select(roleColumns)
      .from(roles)
      .where(filter)
      // The owner first, then by name: the seeded roles read top-down from most to least rights.
      .orderBy(
        sql`${roles.name} = ${OWNER_ROLE_NAME} desc`,
        asc(roles.createdAt),
        asc(roles.name),
        asc(roles.id),
      )
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(roles).where(filter),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, permissions: roleGrants(r) })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export async function getRole(db: TExecutor, scope: Pick<TScope, 'orgId'>, id: string): Promise<TRoleRow> {
  const [row] = await db
    .select(roleColumns)
    .from(roles)
    .where(and(eq(roles.orgId, scope.orgId), eq(roles.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return { ...row, permissions: roleGrants(row) };
}

/** Nobody hands out a right they do not hold themselves; the owner holds them all. */
function refuseEscalation(scope: TScope, granted: readonly string[], before: readonly string[] = []) {
  const added = granted.filter((key) => !before.includes(key));
  const beyond = added.filter((key) => !hasPermission(scope, key as never));
  if (beyond.length > 0) {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: `You cannot grant rights you do not have yourself: ${beyond.join(', ')}`,
    });
  }
}

async function refuseDuplicateName(tx: TExecutor, orgId: string, name: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.orgId, orgId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw new TRPCError({ code: 'CONFLICT', message: `A role named "${name}" already exists` });
}

/** The database's error code, under drizzle's wrapper or bare. */
function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.cause?.code ?? e?.code;
}

/** The unique constraint is the last word when two people save the same name at once. */
function isUniqueViolation(error: unknown): boolean {
  return pgCode(error) === '23505';
}

async function withNameConflict<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new TRPCError({ code: 'CONFLICT', message: `A role named "${name}" already exists` });
    }
    throw error;
  }
}

export async function createRole(db: TDb, scope: TScope, meta: TRequestMeta, input: TRoleValues) {
  refuseEscalation(scope, input.permissions);
  if (input.name.toLowerCase() === OWNER_ROLE_NAME.toLowerCase()) {
    throw new TRPCError({ code: 'CONFLICT', message: `A role named "${input.name}" already exists` });
  }
  return withNameConflict(input.name, () =>
    db.transaction(async (tx) => {
      await refuseDuplicateName(tx, scope.orgId, input.name);
      const [role] = await tx
        .insert(roles)
        .values({
          orgId: scope.orgId,
          name: input.name,
          description: input.description || null,
          permissions: input.permissions,
          assignedClientsOnly: input.assignedClientsOnly,
        })
        .returning({ id: roles.id });
      if (!role) throw new Error('role not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'role.create',
        recordType: 'role',
        recordId: role.id,
        summary: `Created the role ${input.name} with ${input.permissions.length} rights`,
        changes: {
          name: { from: null, to: input.name },
          permissions: { from: null, to: input.permissions },
          assignedClientsOnly: { from: null, to: input.assignedClientsOnly },
        },
      });
      return getRole(tx, scope, role.id);
    }),
  );
}

async function lockedRole(tx: TExecutor, orgId: string, id: string) {
  const [role] = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.orgId, orgId), eq(roles.id, id)))
    .for('update')
    .limit(1);
  if (!role) throw notFound();
  return role;
}

export async function updateRole(db: TDb, scope: TScope, meta: TRequestMeta, input: TRoleUpdate) {
  return withNameConflict(input.name, () =>
    db.transaction(async (tx) => {
      const before = await lockedRole(tx, scope.orgId, input.id);
      if (before.name === OWNER_ROLE_NAME) {
        throw new TRPCError({
          code: 'FORBIDDEN',
          message: 'The Owner role keeps every right and cannot be changed',
        });
      }
      if (input.name.toLowerCase() === OWNER_ROLE_NAME.toLowerCase()) {
        throw new TRPCError({ code: 'CONFLICT', message: `A role named "${input.name}" already exists` });
      }
      refuseEscalation(scope, input.permissions, before.permissions);
      await refuseDuplicateName(tx, scope.orgId, input.name, input.id);
      const after = {
        name: input.name,
        description: input.description || null,
        permissions: input.permissions,
        assignedClientsOnly: input.assignedClientsOnly,
      };
      const changes = diff(
        {
          name: before.name,
          description: before.description,
          permissions: before.permissions,
          assignedClientsOnly: before.assignedClientsOnly,
        },
        after,
      );
      if (changes) {
        await tx
          .update(roles)
          .set({ ...after, updatedAt: new Date() })
          .where(and(eq(roles.orgId, scope.orgId), eq(roles.id, input.id)));
        await audit(tx, actorOf(scope, meta), {
          action: 'role.update',
          recordType: 'role',
          recordId: input.id,
          summary: `Changed the role ${after.name}${before.name !== after.name ? ` (was ${before.name})` : ''}`,
          changes,
        });
      }
      return getRole(tx, scope, input.id);
    }),
  );
}

export async function deleteRole(db: TDb, scope: TScope, meta: TRequestMeta, id: string) {
  try {
    return await deleteRoleTx(db, scope, meta, id);
  } catch (error) {
    // A member or invitation given the role between the check and the delete.
    if (pgCode(error) === '23503') {
      throw new TRPCError({
        code: 'CONFLICT',
        message: 'The role is in use. Move its members to another role first.',
      });
    }
    throw error;
  }
}

async function deleteRoleTx(db: TDb, scope: TScope, meta: TRequestMeta, id: string) {
  return db.transaction(async (tx) => {
    const role = await lockedRole(tx, scope.orgId, id);
    if (role.name === OWNER_ROLE_NAME) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'The Owner role cannot be deleted' });
    }
    const [[held], [invited]] = await Promise.all([
      tx
        .select({ n: count() })
        .from(members)
        .where(and(eq(members.orgId, scope.orgId), eq(members.roleId, id))),
      tx
        .select({ n: count() })
        .from(memberInvites)
        .where(
          and(
            eq(memberInvites.orgId, scope.orgId),
            eq(memberInvites.roleId, id),
            isNull(memberInvites.acceptedAt),
            isNull(memberInvites.revokedAt),
          ),
        ),
    ]);
    const memberN = held?.n ?? 0;
    const inviteN = invited?.n ?? 0;
    if (memberN > 0 || inviteN > 0) {
      const uses = [
        memberN > 0 ? `${memberN} ${memberN === 1 ? 'member has' : 'members have'} it` : null,
        inviteN > 0 ? `${inviteN} open ${inviteN === 1 ? 'invitation uses' : 'invitations use'} it` : null,
      ]
        .filter(Boolean)
        .join(' and ');
      throw new TRPCError({
        code: 'CONFLICT',
        message: `The role ${role.name} is in use: ${uses}. Move them to another role first.`,
      });
    }
    // Accepted and revoked invitations still point at the role (a foreign key the schema keeps):
    // they are spent, and the system log keeps their story, so they go with it.
    await tx
      .delete(memberInvites)
      .where(
        and(
          eq(memberInvites.orgId, scope.orgId),
          eq(memberInvites.roleId, id),
          or(isNotNull(memberInvites.acceptedAt), isNotNull(memberInvites.revokedAt)),
        ),
      );
    await tx.delete(roles).where(and(eq(roles.orgId, scope.orgId), eq(roles.id, id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'role.delete',
      recordType: 'role',
      recordId: id,
      summary: `Deleted the role ${role.name}`,
      changes: {
        name: { from: role.name, to: null },
        permissions: { from: role.permissions, to: null },
        assignedClientsOnly: { from: role.assignedClientsOnly, to: null },
      },
    });
    return { id };
  });
}
