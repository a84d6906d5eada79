import { TRPCError } from '@trpc/server';
import type { TApprovalSettings } from '../../../domain/timesheet-approval';
import { formatMinutes } from '../../../domain/timesheets';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { timesheetSettings } from '../../db/schema';
import { audit, diff } from '../system-log';
import { approvalRules, peopleOf } from './approvers';

/** The firm's approval rules as Firm settings shows them, with the members who could be named. */
export async function approvalSettings(db: TExecutor, scope: TScope) {
  const [rules, people] = await Promise.all([approvalRules(db, scope.orgId), peopleOf(db, scope.orgId)]);
  return {
    dailyLimitMinutes: rules.dailyLimitMinutes,
    approversApproverId: rules.approversApprover?.id ?? null,
    candidates: people.filter((p) => p.active && p.approves).map((p) => ({ id: p.id, name: p.name })),
  };
}

export async function setApprovalSettings(
  db: TDb,
  scope: TScope,
  input: TApprovalSettings,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await approvalSettings(tx, scope);
    let approverName: string | null = null;
    if (input.approversApproverId) {
      const [named] = await peopleOf(tx, scope.orgId, [input.approversApproverId]);
      if (!named) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
      if (!named.active || !named.approves)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `${named.name} does not approve timesheets: choose someone whose role does`,
        });
      approverName = named.name;
    }
    const changes = diff(
      { dailyLimitMinutes: before.dailyLimitMinutes, approversApproverId: before.approversApproverId },
      input,
    );
    if (!changes) return input;
    await tx
      .insert(timesheetSettings)
      .values({ orgId: scope.orgId, ...input })
      .onConflictDoUpdate({ target: timesheetSettings.orgId, set: { ...input, updatedAt: new Date() } });
    await audit(tx, actorOf(scope, meta), {
      action: 'timesheet.approvalSettings',
      recordType: 'timesheetSettings',
      recordId: scope.orgId,
      summary: `Set timesheet approval: daily limit ${formatMinutes(input.dailyLimitMinutes)} h, approvers' approver ${approverName ?? 'the owner'}`,
      changes,
    });
    return input;
  });
}
