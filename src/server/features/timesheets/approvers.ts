import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { hasPermission } from '../../../domain/permissions';
import {
  approverOnlyMessage,
  DEFAULT_DAILY_LIMIT_MINUTES,
  OWN_WEEK_REFUSED,
} from '../../../domain/timesheet-approval';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { members, roles, timesheetSettings } from '../../db/schema';
import { memberName } from '../../db/sql';

// Who decides a week, the one rule for approving and sending back (billing takes approved time as
// billable, so nobody may approve their own):
// - a member who does not approve timesheets: any approver but themselves;
// - a member who approves timesheets (the owner included): only the firm's named approvers' approver,
//   or the owner when none is named (or the named one is the member); the owner's own week then
//   needs a named approver, and until one is named nobody can approve it.

export type TPerson = { id: string; name: string; isOwner: boolean; approves: boolean; active: boolean };

/** The firm's members by id, each with whether they approve timesheets; a missing id is left out. */
export async function peopleOf(tx: TExecutor, orgId: string, ids?: readonly string[]): Promise<TPerson[]> {
  const rows = await tx
    .select({
      id: members.id,
      name: memberName,
      isOwner: members.isOwner,
      status: members.status,
      permissions: roles.permissions,
    })
    .from(members)
    .innerJoin(roles, and(eq(roles.orgId, members.orgId), eq(roles.id, members.roleId)))
    .where(and(eq(members.orgId, orgId), ids ? inArray(members.id, [...new Set(ids)]) : undefined))
    .orderBy(asc(members.firstName), asc(members.lastName), asc(members.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    isOwner: r.isOwner,
    approves: hasPermission(r, 'timesheets.approve'),
    active: r.status === 'active',
  }));
}

export type TApprovalRules = { dailyLimitMinutes: number; approversApprover: TPerson | null };

/** The firm's approval settings; a named approver who left or lost the right counts as none. */
export async function approvalRules(tx: TExecutor, orgId: string): Promise<TApprovalRules> {
  const [row] = await tx
    .select({
      dailyLimitMinutes: timesheetSettings.dailyLimitMinutes,
      approversApproverId: timesheetSettings.approversApproverId,
    })
    .from(timesheetSettings)
    .where(eq(timesheetSettings.orgId, orgId));
  const named = row?.approversApproverId ? (await peopleOf(tx, orgId, [row.approversApproverId]))[0] : null;
  return {
    dailyLimitMinutes: row?.dailyLimitMinutes ?? DEFAULT_DAILY_LIMIT_MINUTES,
    approversApprover: named?.active && named.approves ? named : null,
  };
}

export type TDecider = { may: true } | { may: false; reason: string };

/** Whether the caller may approve or send back this member's week, and if not, why (said to them). */
export function decider(scope: TScope, member: TPerson, rules: TApprovalRules): TDecider {
  if (member.id === scope.memberId) return { may: false, reason: OWN_WEEK_REFUSED };
  if (!member.approves) return { may: true };
  const named = rules.approversApprover;
  if (named && named.id !== member.id)
    return named.id === scope.memberId
      ? { may: true }
      : { may: false, reason: approverOnlyMessage(member.name, named.name) };
  if (member.isOwner) return { may: false, reason: approverOnlyMessage(member.name, null) };
  return scope.isOwner
    ? { may: true }
    : { may: false, reason: approverOnlyMessage(member.name, 'the owner') };
}

/**
 * Refuses, FORBIDDEN with the reason, a decision on any week the caller may not decide; NOT_FOUND
 * for an id that is not the firm's. Returns the people for the caller's log lines.
 */
export async function assertMayDecide(tx: TExecutor, scope: TScope, memberIds: readonly string[]) {
  const unique = [...new Set(memberIds)];
  const [people, rules] = await Promise.all([
    peopleOf(tx, scope.orgId, unique),
    approvalRules(tx, scope.orgId),
  ]);
  if (people.length !== unique.length)
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  for (const person of people) {
    const d = decider(scope, person, rules);
    if (!d.may) throw new TRPCError({ code: 'FORBIDDEN', message: d.reason });
  }
  return people;
}
