import { TRPCError } from '@trpc/server';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import type { TPage } from '../../../domain/pagination';
import {
  catalogueRelease,
  filingsOf,
  findFiling,
  notInReleaseMessage,
  releasesAfter,
  type TCatalogueRelease,
  type TFiling,
} from '../../../domain/statutory/catalogue';
import { EMPTY_REGISTRATIONS, factsOf, type TRegistrations } from '../../../domain/statutory/registrations';
import { applicableFilings, nextFilingDue } from '../../../domain/statutory/rules';
import type { TEngageInput, TGapsQuery } from '../../../domain/statutory/schemas';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { clientRegistrations, clientServices, clients, orgs, services } from '../../db/schema';
import { cappedCount, rowsOf } from '../../db/sql';
import { clientVisibility, visibleClient } from '../clients';
import { insertEngagement } from '../engagements';
import { audit, diff } from '../system-log';
import { applicableCodesSql } from './applicability-sql';

/** The catalogue as the screens show it: the firm's version's filings, each with its next due date. */
export function catalogueView(release: TCatalogueRelease, today: string) {
  const newer = releasesAfter(release.version);
  return {
    version: release.version,
    /** The newest release when the firm has not yet reviewed it (null: up to date). */
    pending: newer.length ? (newer[newer.length - 1]?.version ?? null) : null,
    filings: filingsOf(release).map((f) => ({ ...filingSummary(f), nextDue: nextFilingDue(f, today) })),
  };
}

/** The release of the catalogue the firm accepted: its filings and rules until it accepts a newer one. */
export async function firmRelease(db: TExecutor, orgId: string): Promise<TCatalogueRelease> {
  const [org] = await db
    .select({ version: orgs.statutoryCatalogueVersion })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  return catalogueRelease(org?.version);
}

export function filingSummary(f: TFiling) {
  return {
    code: f.code,
    form: f.form,
    name: f.name,
    authority: f.authority,
    frequency: f.frequency,
    description: f.description,
  };
}

const registrationColumns = {
  gstin: clientRegistrations.gstin,
  gstScheme: clientRegistrations.gstScheme,
  turnoverBand: clientRegistrations.turnoverBand,
  pan: clientRegistrations.pan,
  tan: clientRegistrations.tan,
  cin: clientRegistrations.cin,
  llpin: clientRegistrations.llpin,
  taxAudit: clientRegistrations.taxAudit,
  transferPricing: clientRegistrations.transferPricing,
  collectsTcs: clientRegistrations.collectsTcs,
};

async function registrationsOf(db: TExecutor, orgId: string, clientId: string, lock = false) {
  const query = db
    .select(registrationColumns)
    .from(clientRegistrations)
    .where(and(eq(clientRegistrations.orgId, orgId), eq(clientRegistrations.clientId, clientId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function getRegistrations(
  db: TExecutor,
  scope: TScope,
  clientId: string,
): Promise<TRegistrations> {
  const client = await visibleClient(db, scope, clientId);
  return (await registrationsOf(db, scope.orgId, client.id)) ?? EMPTY_REGISTRATIONS;
}

/** Saves a client's registrations (one row per client), in the system log with what changed. */
export async function setRegistrations(
  db: TDb,
  scope: TScope,
  clientId: string,
  data: TRegistrations,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const client = await visibleClient(tx, scope, clientId, true);
    const before = (await registrationsOf(tx, scope.orgId, client.id)) ?? EMPTY_REGISTRATIONS;
    const changes = diff(before as unknown as Record<string, unknown>, data);
    if (!changes) return { clientId };
    await saveRegistrations(tx, scope.orgId, client.id, data);
    await audit(tx, actorOf(scope, meta), {
      action: 'client.registrations',
      recordType: 'client',
      recordId: client.id,
      summary: `Updated the registrations of ${client.name}`,
      changes,
    });
    return { clientId };
  });
}

/** Upsert inside the caller's transaction (the profile and the CSV import). */
export async function saveRegistrations(
  tx: TExecutor,
  orgId: string,
  clientId: string,
  data: TRegistrations,
) {
  const values = { ...data, gstState: data.gstin ? data.gstin.slice(0, 2) : null };
  await tx
    .insert(clientRegistrations)
    .values({ orgId, clientId, ...values })
    .onConflictDoUpdate({
      target: [clientRegistrations.orgId, clientRegistrations.clientId],
      set: { ...values, updatedAt: new Date() },
    });
}

export async function firmTodayOf(db: TExecutor, orgId: string) {
  const [org] = await db.select({ timeZone: orgs.timeZone }).from(orgs).where(eq(orgs.id, orgId)).limit(1);
  return todayIn(org?.timeZone ?? 'UTC');
}

/** The firm's active services linked to each filing, by name. */
async function linkedServices(db: TExecutor, orgId: string) {
  const rows = await db
    .select({ id: services.id, name: services.name, filingCode: services.statutoryFilingCode })
    .from(services)
    .where(
      and(eq(services.orgId, orgId), isNotNull(services.statutoryFilingCode), isNull(services.archivedAt)),
    )
    .orderBy(asc(services.name), asc(services.id));
  const byFiling = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) {
    if (!r.filingCode) continue;
    byFiling.set(r.filingCode, [...(byFiling.get(r.filingCode) ?? []), { id: r.id, name: r.name }]);
  }
  return byFiling;
}

/** What a client must file (from its registrations), whether it is engaged for each, and when it is next due. */
export async function clientFilings(db: TExecutor, scope: TScope, clientId: string) {
  const client = await visibleClient(db, scope, clientId);
  const registrations = (await registrationsOf(db, scope.orgId, client.id)) ?? EMPTY_REGISTRATIONS;
  const today = await firmTodayOf(db, scope.orgId);
  const [linked, engaged] = await Promise.all([
    linkedServices(db, scope.orgId),
    db
      .selectDistinct({
        filingCode: services.statutoryFilingCode,
        serviceId: services.id,
        name: services.name,
      })
      .from(clientServices)
      .innerJoin(
        services,
        and(eq(services.orgId, clientServices.orgId), eq(services.id, clientServices.serviceId)),
      )
      .where(
        and(
          eq(clientServices.orgId, scope.orgId),
          eq(clientServices.clientId, client.id),
          isNotNull(services.statutoryFilingCode),
          sql`(${clientServices.endDate} is null or ${clientServices.endDate} >= ${today}::date)`,
        ),
      ),
  ]);
  const release = await firmRelease(db, scope.orgId);
  const filings = applicableFilings(factsOf(client.type, registrations), filingsOf(release)).map((f) => {
    const engagedFor = engaged
      .filter((e) => e.filingCode === f.code)
      .map((e) => ({ id: e.serviceId, name: e.name }));
    return {
      ...filingSummary(f),
      nextDue: nextFilingDue(f, today),
      engaged: engagedFor,
      linkedServices: linked.get(f.code) ?? [],
      gap: engagedFor.length === 0,
    };
  });
  return { registrations, filings };
}

export type TGapRow = {
  clientId: string;
  clientName: string;
  clientCode: string;
  filing: ReturnType<typeof filingSummary>;
  /** The firm's service that "engage for this" would use; null: link one to the filing first. */
  service: { id: string; name: string } | null;
};

/**
 * The gaps: a client must make a filing (by its registrations) but has no current engagement of a
 * service linked to it. One statement over the firm's registrations, paged.
 */
export async function listGaps(db: TExecutor, scope: TScope, input: TGapsQuery): Promise<TPage<TGapRow>> {
  const visibility = clientVisibility(scope, sql`c.id`);
  const release = await firmRelease(db, scope.orgId);
  // Clients in name order (clients_org_name_idx), each with the filings it must make and is not
  // engaged for: the page stops after its rows instead of sorting every gap of the firm, and the
  // count stops at the cap ("10,000+") as the other long lists' (bench/statutory.ts: 391 ms for
  // 99,000 gaps sorted whole).
  const gaps = sql`
    select c.id as client_id, c.name, c.code, x.code as filing_code
    from clients c
    join client_registrations r on r.org_id = c.org_id and r.client_id = c.id
    cross join lateral unnest(${applicableCodesSql(input.filingCode, filingsOf(release))}) as x(code)
    where c.org_id = ${scope.orgId} and c.archived_at is null and not c.prospect and c.status = 'active'
      and x.code is not null ${visibility ? sql`and ${visibility}` : sql``}
      and not exists (
        select 1 from client_services cs
        join services s on s.org_id = cs.org_id and s.id = cs.service_id
        where cs.org_id = ${scope.orgId} and cs.client_id = c.id and s.statutory_filing_code = x.code
          and (cs.end_date is null or cs.end_date >= current_date))`;
  const [result, counts] = await Promise.all([
    db.execute(sql`${gaps}
      order by c.name, c.id, x.code
      limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`),
    cappedCount(db, { limit: (n: number) => sql`${gaps} limit ${n}` }),
  ]);
  const rows = rowsOf<{ client_id: string; name: string; code: string; filing_code: string }>(result);
  const linked = await linkedServices(db, scope.orgId);
  return {
    rows: rows.flatMap((r) => {
      const filing = findFiling(r.filing_code, release);
      if (!filing) return [];
      return [
        {
          clientId: r.client_id,
          clientName: r.name,
          clientCode: r.code,
          filing: filingSummary(filing),
          service: linked.get(filing.code)?.[0] ?? null,
        },
      ];
    }),
    ...counts,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * "Engage for this", in bulk: each (client, filing) gets an engagement of the firm's service linked
 * to the filing (its default fee), from the start date, with its first projects. One transaction;
 * a pair already engaged is skipped.
 */
export async function engageGaps(db: TDb, scope: TScope, input: TEngageInput, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.items.map((i) => i.clientId))];
    const visible = await tx
      .select({ id: clients.id, name: clients.name })
      .from(clients)
      .where(
        and(
          eq(clients.orgId, scope.orgId),
          inArray(clients.id, ids),
          isNull(clients.archivedAt),
          clientVisibility(scope),
        ),
      );
    const byId = new Map(visible.map((c) => [c.id, c]));
    if (byId.size !== ids.length) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client not found' });
    const linked = await linkedServices(tx, scope.orgId);
    const release = await firmRelease(tx, scope.orgId);
    const existing = await tx
      .select({ clientId: clientServices.clientId, filingCode: services.statutoryFilingCode })
      .from(clientServices)
      .innerJoin(
        services,
        and(eq(services.orgId, clientServices.orgId), eq(services.id, clientServices.serviceId)),
      )
      .where(
        and(
          eq(clientServices.orgId, scope.orgId),
          inArray(clientServices.clientId, ids),
          isNotNull(services.statutoryFilingCode),
          sql`(${clientServices.endDate} is null or ${clientServices.endDate} >= ${input.startDate}::date)`,
        ),
      );
    const done = new Set(existing.map((e) => `${e.clientId}|${e.filingCode}`));
    const feeRows = await tx
      .select({ id: services.id, defaultFee: services.defaultFee })
      .from(services)
      .where(and(eq(services.orgId, scope.orgId), isNotNull(services.statutoryFilingCode)));
    const fees = new Map(feeRows.map((s) => [s.id, s.defaultFee]));
    let created = 0;
    let skipped = 0;
    for (const item of input.items) {
      const filing = findFiling(item.filingCode, release);
      if (!filing)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: notInReleaseMessage(item.filingCode, release),
        });
      const service = linked.get(item.filingCode)?.[0];
      if (!service)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `Link one of your services to ${filing.name} first (Services → the service → Statutory filing)`,
        });
      const key = `${item.clientId}|${item.filingCode}`;
      if (done.has(key)) {
        skipped++;
        continue;
      }
      done.add(key);
      await insertEngagement(tx, scope.orgId, item.clientId, {
        serviceId: service.id,
        startDate: input.startDate,
        endDate: null,
        fee: fees.get(service.id) ?? null,
      });
      await audit(tx, actorOf(scope, meta), {
        action: 'engagement.create',
        recordType: 'client',
        recordId: item.clientId,
        summary: `Added ${service.name} to ${byId.get(item.clientId)?.name ?? 'the client'} for ${filing.name} (statutory calendar)`,
      });
      created++;
    }
    return { created, skipped };
  });
}
