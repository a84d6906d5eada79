import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import {
  DEFAULT_AWAY_WARN_PERCENT,
  DEFAULT_MINUTES_PER_DAY,
  DEFAULT_WORKING_DAYS,
  type TLeaveSettings,
  type TMemberWork,
} from '../../../domain/leave';
import type { TWorkPattern } from '../../../domain/leave-rules';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { leaveSettings, members, memberWork } from '../../db/schema';
import { memberName } from '../../db/sql';
import { audit, diff } from '../system-log';

// The firm's work pattern and each member's place in leave (manager, office, own pattern).

const DEFAULTS: TLeaveSettings = {
  workingDays: DEFAULT_WORKING_DAYS,
  minutesPerDay: DEFAULT_MINUTES_PER_DAY,
  offices: [],
  secondLevelAfterDays: null,
  awayWarnPercent: DEFAULT_AWAY_WARN_PERCENT,
};

export async function getLeaveSettings(db: TExecutor, orgId: string): Promise<TLeaveSettings> {
  const [row] = await db.select().from(leaveSettings).where(eq(leaveSettings.orgId, orgId)).limit(1);
  if (!row) return DEFAULTS;
  return {
    workingDays: row.workingDays,
    minutesPerDay: row.minutesPerDay,
    offices: row.offices,
    secondLevelAfterDays: row.secondLevelAfterDays,
    awayWarnPercent: row.awayWarnPercent,
  };
}

export async function updateLeaveSettings(db: TDb, scope: TScope, input: TLeaveSettings, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await getLeaveSettings(tx, scope.orgId);
    const changes = diff(before, input);
    if (!changes) return input;
    await tx
      .insert(leaveSettings)
      .values({ orgId: scope.orgId, ...input })
      .onConflictDoUpdate({ target: leaveSettings.orgId, set: { ...input, updatedAt: new Date() } });
    await audit(tx, actorOf(scope, meta), {
      action: 'leaveSettings.update',
      recordType: 'leaveSettings',
      recordId: scope.orgId,
      summary: 'Updated the work pattern and leave settings',
      changes,
    });
    return input;
  });
}

export type TMemberWorkRow = {
  memberId: string;
  name: string;
  managerId: string | null;
  office: string | null;
  workingDays: number[] | null;
  minutesPerDay: number | null;
};

/** Every member who is not disabled, with their manager, office and own pattern (if any). */
export async function listMemberWork(db: TExecutor, orgId: string): Promise<TMemberWorkRow[]> {
  return db
    .select({
      memberId: members.id,
      name: memberName,
      managerId: memberWork.managerId,
      office: memberWork.office,
      workingDays: memberWork.workingDays,
      minutesPerDay: memberWork.minutesPerDay,
    })
    .from(members)
    .leftJoin(memberWork, and(eq(memberWork.orgId, members.orgId), eq(memberWork.memberId, members.id)))
    .where(and(eq(members.orgId, orgId), ne(members.status, 'disabled')))
    .orderBy(asc(memberName), asc(members.id));
}

async function memberOf(db: TExecutor, orgId: string, memberId: string) {
  const [row] = await db
    .select({ id: members.id, name: memberName })
    .from(members)
    .where(and(eq(members.orgId, orgId), eq(members.id, memberId)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
  return row;
}

export async function updateMemberWork(db: TDb, scope: TScope, input: TMemberWork, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const member = await memberOf(tx, scope.orgId, input.memberId);
    if (input.managerId) {
      if (input.managerId === input.memberId) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'A member cannot be their own manager' });
      }
      await memberOf(tx, scope.orgId, input.managerId);
    }
    const [before] = await tx
      .select({
        managerId: memberWork.managerId,
        office: memberWork.office,
        workingDays: memberWork.workingDays,
        minutesPerDay: memberWork.minutesPerDay,
      })
      .from(memberWork)
      .where(and(eq(memberWork.orgId, scope.orgId), eq(memberWork.memberId, input.memberId)));
    const { memberId, ...values } = input;
    const changes = diff(
      before ?? { managerId: null, office: null, workingDays: null, minutesPerDay: null },
      values,
    );
    if (!changes) return { memberId };
    await tx
      .insert(memberWork)
      .values({ orgId: scope.orgId, memberId, ...values })
      .onConflictDoUpdate({
        target: [memberWork.orgId, memberWork.memberId],
        set: { ...values, updatedAt: new Date() },
      });
    await audit(tx, actorOf(scope, meta), {
      action: 'memberWork.update',
      recordType: 'member',
      recordId: memberId,
      summary: `Updated the manager, office or work pattern of ${member.name}`,
      changes,
    });
    return { memberId };
  });
}

export type TMemberPattern = TWorkPattern & { office: string | null; managerId: string | null };

/** Each member's pattern (their own where set, else the firm's), office and manager. */
export async function patternsOf(
  db: TExecutor,
  orgId: string,
  memberIds: readonly string[],
): Promise<Map<string, TMemberPattern>> {
  const [firm, rows] = await Promise.all([
    getLeaveSettings(db, orgId),
    memberIds.length
      ? db
          .select()
          .from(memberWork)
          .where(and(eq(memberWork.orgId, orgId), inArray(memberWork.memberId, [...memberIds])))
      : [],
  ]);
  const own = new Map(rows.map((r) => [r.memberId, r]));
  return new Map(
    memberIds.map((id) => {
      const r = own.get(id);
      return [
        id,
        {
          workingDays: r?.workingDays ?? firm.workingDays,
          minutesPerDay: r?.minutesPerDay ?? firm.minutesPerDay,
          office: r?.office ?? null,
          managerId: r?.managerId ?? null,
        },
      ];
    }),
  );
}
