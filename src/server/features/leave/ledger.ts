import { TRPCError } from '@trpc/server';
import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { formatAmountWithUnit, type TLedgerKind } from '../../../domain/leave';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { leaveLedger, leaveRequests, leaveTypes, members } from '../../db/schema';
import { memberName, rowsOf } from '../../db/sql';
import { audit } from '../system-log';
import { leaveTypeOf } from './types';

// Balances are sums over the append-only ledger; nothing here updates or deletes an entry. A leave
// year is the calendar year: the year end closes one and carries into the next (jobs.ts).

export type TBalance = {
  memberId: string;
  leaveTypeId: string;
  /** Everything credited and debited in the year, in hundredths of the type's unit. */
  balance: number;
  /** Taken (net of reversals) in the year. */
  taken: number;
  /** Requests still waiting for a decision. */
  pending: number;
};

const yearBounds = (year: number) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

/**
 * Balances of members × active types for a year: the ledger's sums (an index-only scan) joined to
 * the pending requests' in one statement, its rows read as they come. 500 members × 10 types is
 * 5,000 rows, where mapping each through the query builder and merging two results in JavaScript
 * cost more than the database's work.
 */
export async function balances(
  db: TExecutor,
  orgId: string,
  year: number,
  memberIds?: readonly string[],
): Promise<TBalance[]> {
  const { from, to } = yearBounds(year);
  const result = await db.execute(sql`
    with ledger as (
      select ${leaveLedger.memberId} as member_id, ${leaveLedger.leaveTypeId} as leave_type_id,
             sum(${leaveLedger.amount})::int as balance,
             coalesce(-sum(${leaveLedger.amount}) filter (where ${leaveLedger.kind} in ('taken', 'reversal')), 0)::int as taken
      from ${leaveLedger}
      where ${and(
        eq(leaveLedger.orgId, orgId),
        gte(leaveLedger.effectiveOn, from),
        lte(leaveLedger.effectiveOn, to),
        memberIds ? inArray(leaveLedger.memberId, [...memberIds]) : undefined,
      )}
      group by 1, 2
    ), pending as (
      select ${leaveRequests.memberId} as member_id, ${leaveRequests.leaveTypeId} as leave_type_id,
             sum(${leaveRequests.amount})::int as pending
      from ${leaveRequests}
      where ${and(
        eq(leaveRequests.orgId, orgId),
        eq(leaveRequests.status, 'pending'),
        gte(leaveRequests.startDate, from),
        lte(leaveRequests.startDate, to),
        memberIds ? inArray(leaveRequests.memberId, [...memberIds]) : undefined,
      )}
      group by 1, 2
    )
    select member_id as "memberId", leave_type_id as "leaveTypeId", coalesce(balance, 0) as balance,
           coalesce(taken, 0) as taken, coalesce(pending, 0) as pending
    from ledger full join pending using (member_id, leave_type_id)`);
  return rowsOf<TBalance>(result);
}

/** One member's balance of one type in a year (what an apply or approve checks). */
export async function balanceOf(
  db: TExecutor,
  orgId: string,
  memberId: string,
  leaveTypeId: string,
  year: number,
) {
  const rows = await balances(db, orgId, year, [memberId]);
  return (
    rows.find((r) => r.leaveTypeId === leaveTypeId) ?? {
      memberId,
      leaveTypeId,
      balance: 0,
      taken: 0,
      pending: 0,
    }
  );
}

export type TLedgerEntry = {
  orgId: string;
  memberId: string;
  leaveTypeId: string;
  kind: TLedgerKind;
  amount: number;
  effectiveOn: string;
  requestId?: string | null;
  runKey?: string | null;
  note?: string | null;
  createdBy?: string | null;
};

/** Appends entries; those whose run key is already there are skipped. Answers how many were added. */
export async function post(tx: TExecutor, entries: TLedgerEntry[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < entries.length; i += 2000) {
    const rows = await tx
      .insert(leaveLedger)
      .values(entries.slice(i, i + 2000))
      .onConflictDoNothing()
      .returning({ id: leaveLedger.id });
    added += rows.length;
  }
  return added;
}

/** An admin's allocation or adjustment for a member, type and year. */
export async function allocate(
  db: TDb,
  scope: TScope,
  input: { memberId: string; leaveTypeId: string; year: number; amount: number; note?: string },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const type = await leaveTypeOf(tx, scope.orgId, input.leaveTypeId);
    const [member] = await tx
      .select({ id: members.id, name: memberName })
      .from(members)
      .where(and(eq(members.orgId, scope.orgId), eq(members.id, input.memberId)));
    if (!member) throw new TRPCError({ code: 'NOT_FOUND', message: 'Member not found' });
    await post(tx, [
      {
        orgId: scope.orgId,
        memberId: member.id,
        leaveTypeId: type.id,
        kind: 'allocation',
        amount: input.amount,
        effectiveOn: `${input.year}-01-01`,
        note: input.note ?? null,
        createdBy: scope.memberId,
      },
    ]);
    const what = formatAmountWithUnit(Math.abs(input.amount), type.unit);
    await audit(tx, actorOf(scope, meta), {
      action: 'leave.allocate',
      recordType: 'member',
      recordId: member.id,
      summary: `${input.amount > 0 ? 'Allocated' : 'Took back'} ${what} of ${type.name} for ${input.year} ${input.amount > 0 ? 'to' : 'from'} ${member.name}`,
    });
    return { memberId: member.id };
  });
}

/** A member's entries of a year, newest first (their history of credits and debits). */
export async function ledgerOf(db: TExecutor, orgId: string, memberId: string, year: number) {
  const { from, to } = yearBounds(year);
  return db
    .select({
      id: leaveLedger.id,
      leaveTypeId: leaveLedger.leaveTypeId,
      typeName: leaveTypes.name,
      kind: leaveLedger.kind,
      amount: leaveLedger.amount,
      effectiveOn: leaveLedger.effectiveOn,
      note: leaveLedger.note,
      createdAt: leaveLedger.createdAt,
    })
    .from(leaveLedger)
    .innerJoin(
      leaveTypes,
      and(eq(leaveTypes.orgId, leaveLedger.orgId), eq(leaveTypes.id, leaveLedger.leaveTypeId)),
    )
    .where(
      and(
        eq(leaveLedger.orgId, orgId),
        eq(leaveLedger.memberId, memberId),
        gte(leaveLedger.effectiveOn, from),
        lte(leaveLedger.effectiveOn, to),
      ),
    )
    .orderBy(sql`${leaveLedger.effectiveOn} desc, ${leaveLedger.createdAt} desc`);
}

/** Active types, for screens that list a balance per type. */
export const activeTypeIds = (db: TExecutor, orgId: string) =>
  db
    .select({ id: leaveTypes.id })
    .from(leaveTypes)
    .where(and(eq(leaveTypes.orgId, orgId), isNull(leaveTypes.archivedAt)));
