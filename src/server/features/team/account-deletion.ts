import { and, eq } from 'drizzle-orm';
import { OWNER_CANNOT_DELETE } from '../../../domain/security';
import { actorOf, type TRequestMeta } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members } from '../../db/schema';
import { audit } from '../system-log';
import { displayName } from './service';

/**
 * A person deletes their identity: what the firm does when a member leaves. The owner may not (the
 * firm would have nobody to run it); anyone else is deactivated in each firm they are active in, as
 * an admin's "deactivate" does, so their clients, tasks, time and leave keep naming them. Logged in
 * each such firm. Runs in the transaction that removes the identity. Answers the refusal, or null.
 */
export async function leaveFirmsOnAccountDeletion(
  tx: TExecutor,
  request: { sub: string } & TRequestMeta,
): Promise<{ refused: string } | null> {
  const rows = await tx
    .select({
      orgId: members.orgId,
      memberId: members.id,
      email: members.email,
      firstName: members.firstName,
      lastName: members.lastName,
      isOwner: members.isOwner,
      status: members.status,
    })
    .from(members)
    .where(eq(members.sub, request.sub))
    .for('update', { of: members });
  if (rows.some((m) => m.isOwner)) return { refused: OWNER_CANNOT_DELETE };
  for (const m of rows) {
    if (m.status !== 'active') continue;
    await tx
      .update(members)
      .set({ status: 'disabled' })
      .where(and(eq(members.orgId, m.orgId), eq(members.id, m.memberId)));
    await audit(tx, actorOf(m, { ip: request.ip, userAgent: request.userAgent }), {
      action: 'member.account_deleted',
      recordType: 'member',
      recordId: m.memberId,
      summary: `${displayName(m)} deleted their account and left the firm`,
      changes: { status: { from: 'active', to: 'disabled' } },
    });
  }
  return null;
}
