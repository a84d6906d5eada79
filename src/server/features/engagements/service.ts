import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { TBillingMode, TFeeTrigger } from '../../../domain/billing/constants';
import type { ZEngagementCreate, ZEngagementEnd, ZEngagementUpdate } from '../../../domain/engagements';
import type { TPage } from '../../../domain/pagination';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientServiceAssignees, clientServices, members, services } from '../../db/schema';
import { visibleClient } from '../clients';
import { generateForEngagement } from '../projects';
import { assigneesOf } from '../services';
import { firmFormatter } from '../settings';
import { audit, diff } from '../system-log';

export type TEngagementRow = {
  id: string;
  service: { id: string; name: string; code: string; frequency: string; archived: boolean };
  startDate: string;
  endDate: string | null;
  fee: string | null;
  billingMode: TBillingMode;
  feeTrigger: TFeeTrigger;
  /** Null: fixed fees are due from the start date. */
  billFrom: string | null;
  notes: string | null;
  assignees: { id: string; name: string }[];
};

const FIXED_WITHOUT_FEE = 'A fixed fee per period needs the fee';

/** The engagements matching `where` (within the firm), as the client's Services tab shows them. */
async function engagementRows(
  db: TExecutor,
  scope: TScope,
  where: SQL | undefined,
  paging: { page: number; pageSize: number },
): Promise<TEngagementRow[]> {
  const rows = await db
    .select({
      id: clientServices.id,
      serviceId: services.id,
      serviceName: services.name,
      serviceCode: services.code,
      frequency: services.frequency,
      archivedAt: services.archivedAt,
      startDate: clientServices.startDate,
      endDate: clientServices.endDate,
      fee: clientServices.fee,
      billingMode: clientServices.billingMode,
      feeTrigger: clientServices.feeTrigger,
      billFrom: clientServices.billFrom,
      notes: clientServices.notes,
    })
    .from(clientServices)
    .innerJoin(
      services,
      and(eq(services.orgId, clientServices.orgId), eq(services.id, clientServices.serviceId)),
    )
    .where(and(eq(clientServices.orgId, scope.orgId), where))
    .orderBy(desc(clientServices.startDate), asc(services.name), asc(clientServices.id))
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
  const assignees = await assigneesOf(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    service: {
      id: r.serviceId,
      name: r.serviceName,
      code: r.serviceCode,
      frequency: r.frequency,
      archived: !!r.archivedAt,
    },
    startDate: r.startDate,
    endDate: r.endDate,
    fee: r.fee,
    billingMode: r.billingMode,
    feeTrigger: r.feeTrigger,
    billFrom: r.billFrom,
    notes: r.notes,
    assignees: assignees.get(r.id) ?? [],
  }));
}

export async function listForClient(
  db: TExecutor,
  scope: TScope,
  input: { clientId: string; page: number; pageSize: number },
): Promise<TPage<TEngagementRow>> {
  await visibleClient(db, scope, input.clientId);
  const filter = and(eq(clientServices.orgId, scope.orgId), eq(clientServices.clientId, input.clientId));
  const [rows, [totals]] = await Promise.all([
    engagementRows(db, scope, filter, input),
    db.select({ total: count() }).from(clientServices).where(filter),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

/** One engagement, with its client's id; NOT_FOUND unless the caller may see the client. */
export async function getEngagement(
  db: TExecutor,
  scope: TScope,
  engagementId: string,
): Promise<TEngagementRow & { clientId: string }> {
  const [found] = await db
    .select({ clientId: clientServices.clientId })
    .from(clientServices)
    .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.id, engagementId)));
  const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Engagement not found' });
  if (!found) throw notFound();
  await visibleClient(db, scope, found.clientId);
  const [row] = await engagementRows(db, scope, eq(clientServices.id, engagementId), {
    page: 1,
    pageSize: 1,
  });
  if (!row) throw notFound();
  return { ...row, clientId: found.clientId };
}

const hasFee = (fee: string | null) => !!fee && Number(fee) > 0;

/** Every assignee must be an active member of this firm. */
async function checkAssignees(tx: TExecutor, orgId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const found = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.orgId, orgId), inArray(members.id, unique), eq(members.status, 'active')));
  if (found.length !== unique.length) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'assigneeIds: choose active members of your firm' });
  }
  return unique;
}

async function setAssignees(tx: TExecutor, orgId: string, engagementId: string, ids: string[]) {
  await tx
    .delete(clientServiceAssignees)
    .where(
      and(eq(clientServiceAssignees.orgId, orgId), eq(clientServiceAssignees.clientServiceId, engagementId)),
    );
  if (ids.length) {
    await tx
      .insert(clientServiceAssignees)
      .values(ids.map((memberId) => ({ orgId, clientServiceId: engagementId, memberId })));
  }
}

type TNewEngagement = {
  serviceId: string;
  startDate: string;
  endDate?: string | null;
  fee: string | null;
  billingMode?: TBillingMode | undefined;
  feeTrigger?: TFeeTrigger | undefined;
  billFrom?: string | null | undefined;
  notes?: string | null;
  assigneeIds?: string[];
};

/**
 * Adds a service to a client inside the caller's transaction, with its fee arrangement and its
 * first recurring projects, as the screen's engagement gets them. The caller has checked the
 * client; the caller writes the system log. Proposals (issue 37) create engagements through this.
 */
export async function insertEngagement(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  input: TNewEngagement,
) {
  const [service] = await tx
    .select({
      id: services.id,
      name: services.name,
      archivedAt: services.archivedAt,
      billingMode: services.billingMode,
      feeTrigger: services.feeTrigger,
    })
    .from(services)
    .where(and(eq(services.orgId, orgId), eq(services.id, input.serviceId)))
    .limit(1);
  if (!service) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
  if (service.archivedAt) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `${service.name} is archived: restore it in the catalogue before adding it to a client`,
    });
  }
  const assigneeIds = await checkAssignees(tx, orgId, input.assigneeIds ?? []);
  // The service's arrangement unless the form chose one; a fixed fee with no fee is billed by
  // the hour, as the migration decided for the engagements that predate billing.
  const billingMode =
    input.billingMode ?? (service.billingMode === 'fixed' && !input.fee ? 'hourly' : service.billingMode);
  if (billingMode === 'fixed' && !hasFee(input.fee)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: FIXED_WITHOUT_FEE });
  }
  const [row] = await tx
    .insert(clientServices)
    .values({
      orgId,
      clientId,
      serviceId: service.id,
      startDate: input.startDate,
      endDate: input.endDate ?? null,
      fee: input.fee,
      billingMode,
      feeTrigger: input.feeTrigger ?? service.feeTrigger,
      billFrom: input.billFrom ?? null,
      notes: input.notes ?? null,
    })
    .returning({ id: clientServices.id });
  if (!row) throw new Error('engagement not created');
  await setAssignees(tx, orgId, row.id, assigneeIds);
  // The first projects show as soon as the engagement is saved, not at the next periodic run.
  await generateForEngagement(tx, orgId, row.id);
  return { id: row.id, serviceName: service.name };
}

export async function createEngagement(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZEngagementCreate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, input.clientId);
    const row = await insertEngagement(tx, scope.orgId, client.id, input);
    await audit(tx, actorOf(scope, meta), {
      action: 'engagement.create',
      recordType: 'client',
      recordId: client.id,
      summary: `Added ${row.serviceName} to ${client.name} from ${(await firmFormatter(tx, scope.orgId)).date(input.startDate)}`,
    });
    return { id: row.id };
  });
}

/** The engagement (locked) with its client and service; NOT_FOUND when the caller may not see it. */
async function engagementForUpdate(tx: TExecutor, scope: TScope, engagementId: string) {
  const [row] = await tx
    .select({
      id: clientServices.id,
      clientId: clientServices.clientId,
      serviceName: services.name,
      startDate: clientServices.startDate,
      endDate: clientServices.endDate,
      fee: clientServices.fee,
      billingMode: clientServices.billingMode,
      feeTrigger: clientServices.feeTrigger,
      billFrom: clientServices.billFrom,
      notes: clientServices.notes,
    })
    .from(clientServices)
    .innerJoin(
      services,
      and(eq(services.orgId, clientServices.orgId), eq(services.id, clientServices.serviceId)),
    )
    .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.id, engagementId)))
    .limit(1)
    .for('update', { of: clientServices });
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Engagement not found' });
  const client = await visibleClient(tx, scope, row.clientId).catch(() => {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Engagement not found' });
  });
  return { ...row, client };
}

export async function updateEngagement(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZEngagementUpdate>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await engagementForUpdate(tx, scope, input.engagementId);
    const assigneeIds = await checkAssignees(tx, scope.orgId, input.assigneeIds);
    const oldAssignees = (await assigneesOf(tx, scope.orgId, [before.id])).get(before.id) ?? [];
    const after = {
      startDate: input.startDate,
      endDate: input.endDate,
      fee: input.fee,
      billingMode: input.billingMode ?? before.billingMode,
      feeTrigger: input.feeTrigger ?? before.feeTrigger,
      billFrom: input.billFrom === undefined ? before.billFrom : input.billFrom,
      notes: input.notes,
    };
    if (after.billingMode === 'fixed' && !hasFee(after.fee)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: FIXED_WITHOUT_FEE });
    }
    if (after.billFrom && after.billFrom < after.startDate) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Billing cannot start before the engagement does',
      });
    }
    const changes =
      diff(
        {
          startDate: before.startDate,
          endDate: before.endDate,
          fee: before.fee,
          billingMode: before.billingMode,
          feeTrigger: before.feeTrigger,
          billFrom: before.billFrom,
          notes: before.notes,
          assigneeIds: oldAssignees.map((a) => a.id).sort(),
        },
        { ...after, assigneeIds: [...assigneeIds].sort() },
      ) ?? null;
    if (!changes) return { id: before.id };
    await tx
      .update(clientServices)
      .set({ ...after, updatedAt: new Date() })
      .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.id, before.id)));
    await setAssignees(tx, scope.orgId, before.id, assigneeIds);
    await generateForEngagement(tx, scope.orgId, before.id);
    await audit(tx, actorOf(scope, meta), {
      action: 'engagement.update',
      recordType: 'client',
      recordId: before.clientId,
      summary: `Updated ${before.serviceName} for ${before.client.name}`,
      changes,
    });
    return { id: before.id };
  });
}

export async function endEngagement(
  db: TDb,
  scope: TScope,
  input: z.output<typeof ZEngagementEnd>,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const before = await engagementForUpdate(tx, scope, input.engagementId);
    if (input.endDate < before.startDate) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `The end date cannot be before the start date, ${(await firmFormatter(tx, scope.orgId)).date(before.startDate)}`,
      });
    }
    if (before.endDate === input.endDate) return { id: before.id };
    await tx
      .update(clientServices)
      .set({ endDate: input.endDate, updatedAt: new Date() })
      .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.id, before.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'engagement.end',
      recordType: 'client',
      recordId: before.clientId,
      summary: `Ended ${before.serviceName} for ${before.client.name} on ${(await firmFormatter(tx, scope.orgId)).date(input.endDate)}`,
      changes: { endDate: { from: before.endDate, to: input.endDate } },
    });
    return { id: before.id };
  });
}

export async function deleteEngagement(db: TDb, scope: TScope, engagementId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const before = await engagementForUpdate(tx, scope, engagementId);
    await tx
      .delete(clientServices)
      .where(and(eq(clientServices.orgId, scope.orgId), eq(clientServices.id, before.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'engagement.delete',
      recordType: 'client',
      recordId: before.clientId,
      summary: `Removed ${before.serviceName} from ${before.client.name}`,
    });
    return { id: before.id };
  });
}
