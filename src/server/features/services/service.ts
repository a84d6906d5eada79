import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TBillingMode, TFeeTrigger } from '../../../domain/billing/constants';
import { percentToBp } from '../../../domain/billing/wip';
import type { TPage } from '../../../domain/pagination';
import type { TServiceClientsQuery, TServiceListQuery, TServiceValues } from '../../../domain/services';
import {
  catalogueRelease,
  findFiling,
  notInReleaseMessage,
  type TCatalogueRelease,
} from '../../../domain/statutory/catalogue';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  clientServiceAssignees,
  clientServices,
  clients,
  members,
  orgs,
  projectTemplates,
  services,
} from '../../db/schema';
import { escapeLike } from '../../db/sql';
import { fieldConflict, fieldInvalid } from '../../trpc/field-errors';
import { clientVisibility } from '../clients';
import { audit, diff } from '../system-log';

const codeTaken = (code: string) => fieldConflict('code', `Another service already uses the code ${code}`);

export type TServiceRow = {
  id: string;
  name: string;
  code: string;
  category: string | null;
  description: string | null;
  frequency: TServiceValues['frequency'];
  dueDateRule: { dayOfMonth: number; monthsAfterPeriod: number } | null;
  defaultFee: string | null;
  projectTemplateId: string | null;
  statutoryFilingCode: string | null;
  billingMode: TBillingMode;
  feeTrigger: TFeeTrigger;
  taxCode: string;
  /** Basis points; null: the firm's default rate. */
  taxRateBp: number | null;
  archivedAt: Date | null;
  clientCount: number;
};

type TBillingColumns = {
  statutoryFilingCode: string | null;
  billingMode: TBillingMode;
  feeTrigger: TFeeTrigger;
  taxCode: string;
  taxRateBp: number | null;
};

/** The version of the statutory catalogue the firm accepted (read here: the statutory feature imports services). */
async function firmRelease(db: TExecutor, orgId: string) {
  const [org] = await db
    .select({ version: orgs.statutoryCatalogueVersion })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  return catalogueRelease(org?.version);
}

/** The row as stored: the rate in basis points; what the input left out kept (or defaulted). */
function columnsOf(input: TServiceValues, release: TCatalogueRelease, before?: TBillingColumns) {
  const { taxRate, billingMode, feeTrigger, taxCode, statutoryFilingCode, ...rest } = input;
  const link =
    statutoryFilingCode === undefined ? (before?.statutoryFilingCode ?? null) : statutoryFilingCode;
  // A linked filing decides how often the work recurs and when it is due: by the rules of the
  // catalogue version the firm accepted.
  const filing = findFiling(link, release);
  if (link && !filing && link !== before?.statutoryFilingCode)
    throw fieldInvalid('statutoryFilingCode', notInReleaseMessage(link, release));
  return {
    ...rest,
    statutoryFilingCode: link,
    ...(filing ? { frequency: filing.frequency, dueDateRule: filing.due } : {}),
    billingMode: billingMode ?? before?.billingMode ?? (input.defaultFee ? 'fixed' : 'hourly'),
    feeTrigger: feeTrigger ?? before?.feeTrigger ?? 'manual',
    taxCode: taxCode ?? before?.taxCode ?? '',
    taxRateBp: taxRate === undefined ? (before?.taxRateBp ?? null) : taxRate ? percentToBp(taxRate) : null,
  };
}

// Drizzle leaves columns unqualified inside a select list, so the correlated subquery names its tables.
const activeEngagements = (orgId: string) =>
  sql<number>`(select count(distinct cs.client_id)::int from client_services cs
    where cs.org_id = ${orgId} and cs.service_id = "services"."id"
    and (cs.end_date is null or cs.end_date >= current_date))`;

const serviceColumns = (orgId: string) => ({
  id: services.id,
  name: services.name,
  code: services.code,
  category: services.category,
  description: services.description,
  frequency: services.frequency,
  dueDateRule: services.dueDateRule,
  defaultFee: services.defaultFee,
  projectTemplateId: services.projectTemplateId,
  statutoryFilingCode: services.statutoryFilingCode,
  billingMode: services.billingMode,
  feeTrigger: services.feeTrigger,
  taxCode: services.taxCode,
  taxRateBp: services.taxRateBp,
  archivedAt: services.archivedAt,
  clientCount: activeEngagements(orgId),
});

export async function listServices(
  db: TExecutor,
  scope: Pick<TScope, 'orgId'>,
  input: TServiceListQuery,
): Promise<TPage<TServiceRow>> {
  const where: SQL[] = [eq(services.orgId, scope.orgId)];
  where.push(input.archived ? isNotNull(services.archivedAt) : isNull(services.archivedAt));
  if (input.search) {
    const term = escapeLike(input.search);
    const match = or(ilike(services.name, term), ilike(services.code, term), ilike(services.category, term));
    if (match) where.push(match);
  }
  const filter = and(...where);
  const dir = input.direction === 'asc' ? asc : desc;
  const columns = serviceColumns(scope.orgId);
  const order: SQL = {
    name: dir(services.name),
    code: dir(services.code),
    category: sql`${services.category} ${sql.raw(input.direction)} nulls last`,
    clients: dir(columns.clientCount),
  }[input.sort];
  const [rows, [totals]] = await Promise.all([
    db
      .select(columns)
      .from(services)
      .where(filter)
      .orderBy(order, asc(services.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ total: count() }).from(services).where(filter),
  ]);
  return { rows, total: totals?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

/** NOT_FOUND for another firm's or a missing service. */
export async function getService(db: TExecutor, scope: Pick<TScope, 'orgId'>, serviceId: string) {
  const [row] = await db
    .select(serviceColumns(scope.orgId))
    .from(services)
    .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)))
    .limit(1);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
  return row;
}

async function codeInUse(tx: TExecutor, orgId: string, code: string, exceptId?: string) {
  const [row] = await tx
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.orgId, orgId), eq(services.code, code)))
    .limit(1);
  return !!row && row.id !== exceptId;
}

/** A linked template must be one of this firm's (the column has no foreign key across firms). */
async function checkTemplate(tx: TExecutor, orgId: string, templateId: string | null) {
  if (!templateId) return;
  const [row] = await tx
    .select({ id: projectTemplates.id })
    .from(projectTemplates)
    .where(and(eq(projectTemplates.orgId, orgId), eq(projectTemplates.id, templateId)))
    .limit(1);
  if (!row)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'projectTemplateId: choose one of your firm’s templates',
    });
}

export async function createService(db: TDb, scope: TScope, input: TServiceValues, meta: TRequestMeta) {
  try {
    return await db.transaction(async (tx) => {
      if (await codeInUse(tx, scope.orgId, input.code)) throw codeTaken(input.code);
      await checkTemplate(tx, scope.orgId, input.projectTemplateId);
      const [row] = await tx
        .insert(services)
        .values({ orgId: scope.orgId, ...columnsOf(input, await firmRelease(tx, scope.orgId)) })
        .returning({ id: services.id });
      if (!row) throw new Error('service not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'service.create',
        recordType: 'service',
        recordId: row.id,
        summary: `Added the service ${input.name} (${input.code})`,
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(input.code);
    throw error;
  }
}

export async function updateService(
  db: TDb,
  scope: TScope,
  serviceId: string,
  input: TServiceValues,
  meta: TRequestMeta,
) {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(services)
        .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)))
        .limit(1)
        .for('update');
      if (!before) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
      if (await codeInUse(tx, scope.orgId, input.code, serviceId)) throw codeTaken(input.code);
      await checkTemplate(tx, scope.orgId, input.projectTemplateId);
      const after = columnsOf(input, await firmRelease(tx, scope.orgId), before);
      const changes = diff(before as unknown as Record<string, unknown>, after);
      if (!changes) return { id: serviceId };
      await tx
        .update(services)
        .set({ ...after, updatedAt: new Date() })
        .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)));
      await audit(tx, actorOf(scope, meta), {
        action: 'service.update',
        recordType: 'service',
        recordId: serviceId,
        summary: `Updated the service ${input.name}`,
        changes,
      });
      return { id: serviceId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(input.code);
    throw error;
  }
}

export async function setServiceArchived(
  db: TDb,
  scope: TScope,
  serviceId: string,
  archived: boolean,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: services.name, archivedAt: services.archivedAt })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)))
      .limit(1)
      .for('update');
    if (!before) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
    if (!!before.archivedAt === archived) return { id: serviceId, archived };
    const archivedAt = archived ? new Date() : null;
    await tx
      .update(services)
      .set({ archivedAt, updatedAt: new Date() })
      .where(and(eq(services.orgId, scope.orgId), eq(services.id, serviceId)));
    await audit(tx, actorOf(scope, meta), {
      action: archived ? 'service.archive' : 'service.restore',
      recordType: 'service',
      recordId: serviceId,
      summary: `${archived ? 'Archived' : 'Restored'} the service ${before.name}`,
      changes: { archivedAt: { from: before.archivedAt, to: archivedAt } },
    });
    return { id: serviceId, archived };
  });
}

export type TServiceClientRow = {
  id: string;
  client: { id: string; name: string; code: string };
  startDate: string;
  endDate: string | null;
  fee: string | null;
  assignees: { id: string; name: string }[];
};

/** The engagements of one service with their client, a page at a time (assigned-only roles see theirs). */
export async function serviceClients(
  db: TExecutor,
  scope: TScope,
  input: TServiceClientsQuery,
): Promise<TPage<TServiceClientRow>> {
  await getService(db, scope, input.serviceId);
  const filter = and(
    eq(clientServices.orgId, scope.orgId),
    eq(clientServices.serviceId, input.serviceId),
    clientVisibility(scope),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: clientServices.id,
        clientId: clients.id,
        clientName: clients.name,
        clientCode: clients.code,
        startDate: clientServices.startDate,
        endDate: clientServices.endDate,
        fee: clientServices.fee,
      })
      .from(clientServices)
      .innerJoin(
        clients,
        and(eq(clients.orgId, clientServices.orgId), eq(clients.id, clientServices.clientId)),
      )
      .where(filter)
      .orderBy(asc(clients.name), asc(clientServices.startDate), asc(clientServices.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db
      .select({ total: count() })
      .from(clientServices)
      .innerJoin(
        clients,
        and(eq(clients.orgId, clientServices.orgId), eq(clients.id, clientServices.clientId)),
      )
      .where(filter),
  ]);
  const assignees = await assigneesOf(
    db,
    scope.orgId,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => ({
      id: r.id,
      client: { id: r.clientId, name: r.clientName, code: r.clientCode },
      startDate: r.startDate,
      endDate: r.endDate,
      fee: r.fee,
      assignees: assignees.get(r.id) ?? [],
    })),
    total: totals?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** The assignees of many engagements in one query. */
export async function assigneesOf(db: TExecutor, orgId: string, engagementIds: string[]) {
  const out = new Map<string, { id: string; name: string }[]>();
  if (!engagementIds.length) return out;
  const rows = await db
    .select({
      engagementId: clientServiceAssignees.clientServiceId,
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      email: members.email,
    })
    .from(clientServiceAssignees)
    .innerJoin(
      members,
      and(eq(members.orgId, clientServiceAssignees.orgId), eq(members.id, clientServiceAssignees.memberId)),
    )
    .where(
      and(
        eq(clientServiceAssignees.orgId, orgId),
        inArray(clientServiceAssignees.clientServiceId, engagementIds),
      ),
    )
    .orderBy(asc(members.firstName), asc(members.lastName));
  for (const r of rows) {
    const list = out.get(r.engagementId) ?? [];
    list.push({ id: r.id, name: `${r.firstName} ${r.lastName}`.trim() || r.email });
    out.set(r.engagementId, list);
  }
  return out;
}
