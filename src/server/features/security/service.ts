import { TRPCError } from '@trpc/server';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { TPage } from '../../../domain/pagination';
import {
  OWNER_CANNOT_DELETE,
  SIGN_IN_ACTIONS,
  type TSignInAction,
  type TSignInListQuery,
} from '../../../domain/security';
import type { TRequestMeta, TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { systemLog } from '../../db/schema';
import { confirmOwnPassword, deleteIdentity } from '../../idp/account-deletion';
import { leaveFirmsOnAccountDeletion } from '../team';

export type TSignInRow = {
  id: string;
  at: Date;
  action: TSignInAction;
  ip: string | null;
  userAgent: string | null;
};

/**
 * The caller's own sign-ins, failures and lock-outs in this firm, newest first: the system-log rows
 * the identity provider's events write about them (recorded against their member row).
 */
export async function listSignIns(
  db: TExecutor,
  scope: TScope,
  input: TSignInListQuery,
): Promise<TPage<TSignInRow>> {
  const filter = and(
    eq(systemLog.orgId, scope.orgId),
    eq(systemLog.recordType, 'member'),
    eq(systemLog.recordId, scope.memberId),
    eq(systemLog.actorMemberId, scope.memberId),
    inArray(systemLog.action, [...SIGN_IN_ACTIONS]),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: systemLog.id,
        at: systemLog.at,
        action: systemLog.action,
        ip: systemLog.ip,
        userAgent: systemLog.userAgent,
      })
      .from(systemLog)
      .where(filter)
      .orderBy(desc(systemLog.at), desc(systemLog.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(systemLog).where(filter),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, action: r.action as TSignInAction })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * The member deletes their own identity, having typed their password: refused for a firm's owner;
 * otherwise they leave every firm as a deactivated member (their work stays) and the identity goes
 * with all its sign-ins, in one transaction.
 */
export async function deleteOwnAccount(
  db: TDb,
  config: TConfig,
  caller: { sub: string; scope: TScope },
  password: string,
  meta: TRequestMeta,
): Promise<{ ok: true }> {
  const { sub } = caller;
  // Before the password: the owner is told at once (and told again under lock, should it change).
  if (caller.scope.isOwner) throw new TRPCError({ code: 'FORBIDDEN', message: OWNER_CANNOT_DELETE });
  if (config.idp.mode !== 'embedded') {
    throw new TRPCError({
      code: 'PRECONDITION_FAILED',
      message: 'Your sign-in is managed by your firm’s identity provider: ask an administrator to remove it',
    });
  }
  // Checked before the transaction: a wrong try must count even though nothing else happens.
  const checked = await confirmOwnPassword(db, sub, password);
  if (checked === 'locked')
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many wrong passwords: try again later' });
  if (checked === 'wrong') throw new TRPCError({ code: 'BAD_REQUEST', message: 'The password is not right' });
  if (checked === 'no_user')
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  await db.transaction(async (tx) => {
    const answer = await leaveFirmsOnAccountDeletion(tx, { sub, ...meta });
    if (answer) throw new TRPCError({ code: 'FORBIDDEN', message: answer.refused });
    await deleteIdentity(tx, sub);
  });
  return { ok: true };
}
