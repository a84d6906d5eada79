import { TRPCError } from '@trpc/server';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { TLeaveTypeFields } from '../../../domain/leave';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { leaveTypes } from '../../db/schema';
import { audit, diff } from '../system-log';

const nameTaken = (name: string) =>
  new TRPCError({ code: 'CONFLICT', message: `Another leave type is already called ${name}` });

const columns = {
  id: leaveTypes.id,
  name: leaveTypes.name,
  paid: leaveTypes.paid,
  unit: leaveTypes.unit,
  accrual: leaveTypes.accrual,
  allowance: leaveTypes.allowance,
  rounding: leaveTypes.rounding,
  carryForwardCap: leaveTypes.carryForwardCap,
  carryForwardExpiryMonths: leaveTypes.carryForwardExpiryMonths,
  allowNegative: leaveTypes.allowNegative,
  countWeekends: leaveTypes.countWeekends,
  countHolidays: leaveTypes.countHolidays,
  maxConsecutiveDays: leaveTypes.maxConsecutiveDays,
  attachmentAfterDays: leaveTypes.attachmentAfterDays,
  archived: leaveTypes.archivedAt,
};

export type TLeaveTypeRow = Omit<TLeaveTypeFields, never> & { id: string; archived: boolean };

const toRow = ({ archived, ...r }: Record<string, unknown> & { archived: Date | null }) =>
  ({ ...r, archived: !!archived }) as TLeaveTypeRow;

/** The firm's leave types, by name; archived ones only when asked (old requests still name them). */
export async function listLeaveTypes(db: TExecutor, orgId: string, includeArchived = false) {
  const rows = await db
    .select(columns)
    .from(leaveTypes)
    .where(and(eq(leaveTypes.orgId, orgId), includeArchived ? undefined : isNull(leaveTypes.archivedAt)))
    .orderBy(asc(leaveTypes.name));
  return rows.map(toRow);
}

export async function leaveTypeOf(db: TExecutor, orgId: string, leaveTypeId: string, lock = false) {
  const q = db
    .select(columns)
    .from(leaveTypes)
    .where(and(eq(leaveTypes.orgId, orgId), eq(leaveTypes.id, leaveTypeId)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Leave type not found' });
  return toRow(row);
}

export async function createLeaveType(db: TDb, scope: TScope, input: TLeaveTypeFields, meta: TRequestMeta) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(leaveTypes)
        .values({ orgId: scope.orgId, ...input })
        .returning({ id: leaveTypes.id });
      if (!row) throw new Error('leave type not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'leaveType.create',
        recordType: 'leaveType',
        recordId: row.id,
        summary: `Added the leave type ${input.name}`,
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateLeaveType(
  db: TDb,
  scope: TScope,
  leaveTypeId: string,
  input: TLeaveTypeFields,
  meta: TRequestMeta,
) {
  try {
    return await db.transaction(async (tx) => {
      const { id: _id, archived: _a, ...before } = await leaveTypeOf(tx, scope.orgId, leaveTypeId, true);
      const changes = diff(before, input);
      if (!changes) return { id: leaveTypeId };
      await tx
        .update(leaveTypes)
        .set({ ...input, updatedAt: new Date() })
        .where(and(eq(leaveTypes.orgId, scope.orgId), eq(leaveTypes.id, leaveTypeId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'leaveType.update',
        recordType: 'leaveType',
        recordId: leaveTypeId,
        summary: `Updated the leave type ${input.name}`,
        changes,
      });
      return { id: leaveTypeId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

/** Archiving keeps the type's ledger and requests; it only stops new requests and runs. */
export async function archiveLeaveType(db: TDb, scope: TScope, leaveTypeId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await leaveTypeOf(tx, scope.orgId, leaveTypeId, true);
    if (before.archived) return { id: leaveTypeId };
    await tx
      .update(leaveTypes)
      .set({ archivedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(leaveTypes.orgId, scope.orgId), eq(leaveTypes.id, leaveTypeId)));
    await audit(tx, actorOf(scope, meta), {
      action: 'leaveType.archive',
      recordType: 'leaveType',
      recordId: leaveTypeId,
      summary: `Archived the leave type ${before.name}`,
    });
    return { id: leaveTypeId };
  });
}
