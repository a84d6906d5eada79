import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TMfaPolicy } from '../../../domain/mfa';
import { actorOf, refreshMfaRuleSince, type TRequestMeta } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { orgs, roles } from '../../db/schema';
import { audit, diff } from '../system-log';

type TScope = { orgId: string; memberId: string };

async function readPolicy(db: TExecutor, orgId: string, lock = false): Promise<TMfaPolicy> {
  const query = db
    .select({ policy: orgs.mfaPolicy, roleIds: orgs.mfaRoleIds, graceDays: orgs.mfaGraceDays })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Firm not found' });
  return row;
}

/** The firm's two-step sign-in rule (Firm settings), with the roles it may name. */
export async function getMfaPolicy(db: TExecutor, scope: TScope) {
  const [policy, roleOptions] = await Promise.all([
    readPolicy(db, scope.orgId),
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(eq(roles.orgId, scope.orgId))
      .orderBy(asc(roles.name)),
  ]);
  return { ...policy, roleOptions };
}

const describe = (p: TMfaPolicy, roleNames: string[]) =>
  p.policy === 'off'
    ? 'no longer requires two-step sign-in'
    : `requires two-step sign-in of ${p.policy === 'all' ? 'all staff' : `the roles ${roleNames.join(', ')}`} (${p.graceDays} grace days)`;

export async function updateMfaPolicy(db: TDb, scope: TScope, input: TMfaPolicy, meta: TRequestMeta) {
  const roleIds = input.policy === 'roles' ? [...new Set(input.roleIds)].sort() : [];
  const next: TMfaPolicy = { ...input, roleIds };
  return db.transaction(async (tx) => {
    const before = await readPolicy(tx, scope.orgId, true);
    const named = roleIds.length
      ? await tx
          .select({ id: roles.id, name: roles.name })
          .from(roles)
          .where(and(eq(roles.orgId, scope.orgId), inArray(roles.id, roleIds)))
      : [];
    if (named.length !== roleIds.length)
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Role not found' });
    const changes = diff({ ...before, roleIds: [...before.roleIds].sort() }, next);
    if (!changes) return { changed: false, policy: before };
    await tx
      .update(orgs)
      .set({ mfaPolicy: next.policy, mfaRoleIds: roleIds, mfaGraceDays: next.graceDays })
      .where(eq(orgs.id, scope.orgId));
    await refreshMfaRuleSince(tx, scope.orgId);
    await audit(tx, actorOf(scope, meta), {
      action: 'org.mfa_policy',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `The firm ${describe(next, named.map((r) => r.name).sort())}`,
      changes,
    });
    return { changed: true, policy: next };
  });
}
