import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { formatAmountWithUnit } from '../../../domain/leave';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { leaveRequests, members, memberWork } from '../../db/schema';
import { memberName } from '../../db/sql';
import { notify } from '../notifications';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { mayDecide, membersWith } from './access';
import { balanceOf, post } from './ledger';
import { requestOf, spanText } from './requests';
import { leaveTypeOf } from './types';

/**
 * Approves or rejects a pending request. A long request the firm sends to a second level stays
 * pending after the first approval and goes to the other approvers; the final approval checks the
 * balance again and writes the `taken` entry. The member is told either way.
 */
export async function decideLeave(
  db: TDb,
  scope: TScope,
  input: { requestId: string; approve: boolean; comment?: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const r = await requestOf(tx, scope.orgId, input.requestId);
    const [work] = await tx
      .select({ managerId: memberWork.managerId })
      .from(memberWork)
      .where(and(eq(memberWork.orgId, scope.orgId), eq(memberWork.memberId, r.memberId)));
    if (!mayDecide(scope, { ...r, managerId: work?.managerId ?? null })) {
      if (r.memberId === scope.memberId) {
        throw new TRPCError({ code: 'FORBIDDEN', message: 'Someone else decides your own leave' });
      }
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Leave request not found' });
    }
    if (r.status !== 'pending') {
      throw new TRPCError({ code: 'CONFLICT', message: `This request is already ${r.status}` });
    }
    const type = await leaveTypeOf(tx, scope.orgId, r.leaveTypeId);
    const [member] = await tx
      .select({ name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, r.memberId)));
    const what = `${formatAmountWithUnit(r.amount, type.unit)} of ${type.name} (${spanText(r, await firmFormatter(tx, scope.orgId))})`;
    const comment = input.comment || null;
    const now = new Date();

    if (input.approve && r.needsSecondLevel && !r.firstApproverId) {
      await tx
        .update(leaveRequests)
        .set({
          firstApproverId: scope.memberId,
          firstApprovedAt: now,
          decisionComment: comment,
          updatedAt: now,
        })
        .where(and(eq(leaveRequests.orgId, scope.orgId), eq(leaveRequests.id, r.id)));
      await audit(tx, actorOf(scope, meta), {
        action: 'leave.approveFirst',
        recordType: 'leaveRequest',
        recordId: r.id,
        summary: `Approved ${member?.name}'s ${what} at the first level`,
      });
      const second = (await membersWith(tx, scope.orgId, 'leaves.approve')).filter(
        (id) => id !== scope.memberId && id !== r.memberId,
      );
      await notify(tx, {
        orgId: scope.orgId,
        memberIds: second,
        kind: 'leave.requested',
        title: `${member?.name} asks for ${what}: approved once, needs a second approval`,
        link: `/team/leaves?open=${r.id}`,
      });
      return { id: r.id, status: 'pending' as const };
    }

    if (input.approve) {
      // Pending includes this request, so what is left after it is balance less pending.
      const b = await balanceOf(tx, scope.orgId, r.memberId, r.leaveTypeId, Number(r.startDate.slice(0, 4)));
      const left = b.balance - b.pending;
      if (left < 0 && !type.allowNegative) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${member?.name} has ${formatAmountWithUnit(left + r.amount, type.unit)} left: not enough for this request`,
        });
      }
      await post(tx, [
        {
          orgId: scope.orgId,
          memberId: r.memberId,
          leaveTypeId: r.leaveTypeId,
          kind: 'taken',
          amount: -r.amount,
          effectiveOn: r.startDate,
          requestId: r.id,
          runKey: `taken:${r.id}`,
          createdBy: scope.memberId,
        },
      ]);
    }
    const status = input.approve ? ('approved' as const) : ('rejected' as const);
    await tx
      .update(leaveRequests)
      .set({ status, decidedBy: scope.memberId, decidedAt: now, decisionComment: comment, updatedAt: now })
      .where(and(eq(leaveRequests.orgId, scope.orgId), eq(leaveRequests.id, r.id)));
    await audit(tx, actorOf(scope, meta), {
      action: input.approve ? 'leave.approve' : 'leave.reject',
      recordType: 'leaveRequest',
      recordId: r.id,
      summary: `${input.approve ? 'Approved' : 'Rejected'} ${member?.name}'s ${what}${comment ? `: ${comment}` : ''}`,
    });
    await notify(tx, {
      orgId: scope.orgId,
      memberIds: [r.memberId],
      kind: 'leave.decided',
      title: `Your ${what} is ${status}`,
      body: comment ?? undefined,
      link: '/my-account/leaves',
    });
    return { id: r.id, status };
  });
}
