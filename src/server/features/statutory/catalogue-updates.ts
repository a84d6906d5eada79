import { TRPCError } from '@trpc/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  CATALOGUE,
  CATALOGUE_RELEASES,
  catalogueRelease,
  filingsOf,
  releasesAfter,
  type TCatalogueRelease,
} from '../../../domain/statutory/catalogue';
import { catalogueChanges, type TFilingChange } from '../../../domain/statutory/catalogue-changes';
import { filingPeriodContaining } from '../../../domain/statutory/rules';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { orgs, services } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { firmFormatter } from '../settings';
import { audit } from '../system-log';
import { condition } from './applicability-sql';
import { moveProjects } from './extensions';
import { filingSummary, firmTodayOf } from './service';

// A new release of the statutory catalogue (issue 39): each firm keeps the version it accepted until
// it reviews what the release changes for it (its linked services, its open projects' due dates,
// the clients who must or no longer must file) and accepts it. Accepting moves the work the way an
// extension does, re-links the services and stores the version, in one transaction.

/** Most projects the preview lists (the totals count them all). */
const PREVIEW_ROWS = 200;

async function versionOf(db: TExecutor, orgId: string, lock = false) {
  const query = db
    .select({ version: orgs.statutoryCatalogueVersion })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  const [org] = lock ? await query.for('update') : await query;
  return org?.version ?? CATALOGUE.version;
}

/** The fiscal years whose due dates can matter to open work: last year's, this year's and next. */
function yearsAround(today: string, release: TCatalogueRelease): number[] {
  const filing = filingsOf(release)[0];
  if (!filing) return [];
  const start = filingPeriodContaining(filing, today).start;
  const country = release.countries[filing.country];
  const fyMonth = country?.fiscalYearStartMonth ?? 1;
  const year = Number(start.slice(0, 4)) - (Number(start.slice(5, 7)) < fyMonth ? 1 : 0);
  return [year - 1, year, year + 1];
}

/** The due-date moves of every changed filing as rows for SQL: (filing_code, period_key, old_due, new_due). */
function movesOf(changes: TFilingChange[], label: (day: string) => string) {
  return changes.flatMap((c) =>
    c.kind === 'changed'
      ? c.dueDates.map((d) => ({
          filing_code: c.code,
          period_key: d.periodKey,
          old_due: d.from,
          new_due: d.to,
          new_due_label: label(d.to),
        }))
      : [],
  );
}

/**
 * The firm's open projects whose due date a release moves: projects of its services linked to a
 * changed filing, for a period whose statutory date moves, still on the old date (one an extension
 * or a person moved keeps its date).
 */
function movedProjects(orgId: string, moves: ReturnType<typeof movesOf>) {
  return sql`
    select p.id, p.name, p.client_id, p.due_date, ch.new_due, ch.new_due_label, (ch.new_due - p.due_date)::int as delta
    from projects p
    join services s on s.org_id = p.org_id and s.id = p.service_id
    join jsonb_to_recordset(${JSON.stringify(moves)}::jsonb)
      as ch(filing_code text, period_key text, old_due date, new_due date, new_due_label text)
      on s.statutory_filing_code = ch.filing_code and p.period_key = ch.period_key and p.due_date = ch.old_due
    where p.org_id = ${orgId} and p.status <> 'COMPLETED' and p.archived_at is null`;
}

/** How many of the firm's active clients must make a filing under a rule (by their registrations). */
function mustFileCount(orgId: string, rule: SQLRule | null) {
  if (!rule) return sql`0`;
  return sql`(select count(*)::int from clients c
    join client_registrations r on r.org_id = c.org_id and r.client_id = c.id
    where c.org_id = ${orgId} and c.archived_at is null and not c.prospect and c.status = 'active'
      and (${condition(rule)}))`;
}
type SQLRule = Parameters<typeof condition>[0];

/** What accepting the newest release would change for the firm. */
export async function catalogueUpdatePreview(
  db: TExecutor,
  scope: TScope,
  releases: readonly TCatalogueRelease[] = CATALOGUE_RELEASES,
) {
  const current = await versionOf(db, scope.orgId);
  const from = catalogueRelease(current, releases);
  const newer = releasesAfter(current, releases);
  const to = newer[newer.length - 1];
  if (!to)
    return { current, latest: current, releases: [], changes: [], projects: [], totals: { projects: 0 } };
  const today = await firmTodayOf(db, scope.orgId);
  const changes = catalogueChanges(from, to, yearsAround(today, to));
  const when = (await firmFormatter(db, scope.orgId)).date;
  const codes = changes.map((c) => c.code);
  const linked = codes.length
    ? await db
        .select({ id: services.id, name: services.name, code: services.statutoryFilingCode })
        .from(services)
        .where(and(eq(services.orgId, scope.orgId), inArray(services.statutoryFilingCode, codes)))
        .orderBy(services.name, services.id)
    : [];
  // The clients who must make each filing before and after (one statement for every change).
  const counts = changes.length
    ? rowsOf<Record<string, number>>(
        await db.execute(
          sql`select ${sql.join(
            changes.map(
              (c, i) =>
                sql`${mustFileCount(scope.orgId, c.kind === 'added' ? null : (c.kind === 'changed' ? c.before : c.filing).appliesTo)} as ${sql.raw(`b${i}`)}, ${mustFileCount(scope.orgId, c.kind === 'retired' ? null : c.filing.appliesTo)} as ${sql.raw(`a${i}`)}`,
            ),
            sql`, `,
          )}`,
        ),
      )[0]
    : undefined;
  const moves = movesOf(changes, when);
  const result = moves.length
    ? rowsOf<{
        id: string;
        name: string;
        client_id: string;
        client_name: string;
        due_date: string;
        new_due: string;
        filing_code: string;
        total: number;
      }>(
        await db.execute(sql`
          with moved as (${movedProjects(scope.orgId, moves)})
          select m.id, m.name, m.client_id, c.name as client_name, m.due_date::text as due_date,
                 m.new_due::text as new_due, s.statutory_filing_code as filing_code, count(*) over ()::int as total
          from moved m
          join projects p on p.org_id = ${scope.orgId} and p.id = m.id
          join services s on s.org_id = p.org_id and s.id = p.service_id
          join clients c on c.org_id = ${scope.orgId} and c.id = m.client_id
          order by m.due_date, c.name, m.id
          limit ${PREVIEW_ROWS}`),
      )
    : [];
  return {
    current,
    latest: to.version,
    releases: newer.map((r) => ({ version: r.version, notes: r.notes })),
    changes: changes.map((c, i) => ({
      kind: c.kind,
      filing: filingSummary(c.filing),
      dueDates: c.kind === 'changed' ? c.dueDates : [],
      frequency:
        c.kind === 'changed'
          ? { from: c.before.frequency, to: c.filing.frequency, changed: c.frequency }
          : null,
      appliesTo: c.kind === 'changed' ? c.appliesTo : c.kind === 'added',
      wording: c.kind === 'changed' ? c.wording : false,
      services: linked.filter((s) => s.code === c.code).map((s) => ({ id: s.id, name: s.name })),
      clients: { before: Number(counts?.[`b${i}`] ?? 0), after: Number(counts?.[`a${i}`] ?? 0) },
    })),
    projects: result.map((r) => ({
      projectId: r.id,
      projectName: r.name,
      clientId: r.client_id,
      clientName: r.client_name,
      filingCode: r.filing_code,
      dueDate: String(r.due_date).slice(0, 10),
      newDueDate: String(r.new_due).slice(0, 10),
    })),
    totals: { projects: Number(result[0]?.total ?? 0) },
  };
}

/**
 * Accepts the newest release (the one the firm reviewed: a newer one shipped since is refused, to be
 * reviewed in turn): open projects still on a moved statutory date move (tasks, reminders and
 * requests with them, each in the system log), services linked to a changed filing take its new
 * frequency and due-date rule, services linked to a retired filing keep their rule unlinked, and the
 * firm's version is stored. One transaction, the firm's row locked so two accepts do not race.
 */
export async function acceptCatalogueUpdate(
  db: TDb,
  scope: TScope,
  version: string,
  meta: TRequestMeta,
  releases: readonly TCatalogueRelease[] = CATALOGUE_RELEASES,
) {
  return db.transaction(async (tx) => {
    const current = await versionOf(tx, scope.orgId, true);
    if (current === version)
      throw new TRPCError({ code: 'CONFLICT', message: `Your firm already uses version ${version}` });
    const newer = releasesAfter(current, releases);
    const to = newer[newer.length - 1];
    if (!to || to.version !== version)
      throw new TRPCError({
        code: 'CONFLICT',
        message: to
          ? `Version ${to.version} is the newest: review it before accepting`
          : `Version ${version} is not a newer catalogue`,
      });
    const today = await firmTodayOf(tx, scope.orgId);
    const changes = catalogueChanges(catalogueRelease(current, releases), to, yearsAround(today, to));
    const when = (await firmFormatter(tx, scope.orgId)).date;
    const moves = movesOf(changes, when);
    const moved = moves.length
      ? await moveProjects(tx, scope, movedProjects(scope.orgId, moves), `statutory catalogue ${to.version}`)
      : { projects: 0, tasks: 0, reminders: 0, requests: 0, clientIds: [] };
    let relinked = 0;
    let unlinked = 0;
    for (const c of changes) {
      if (c.kind === 'changed' && c.rule) {
        const rows = await tx
          .update(services)
          .set({ frequency: c.filing.frequency, dueDateRule: c.filing.due, updatedAt: new Date() })
          .where(and(eq(services.orgId, scope.orgId), eq(services.statutoryFilingCode, c.code)))
          .returning({ id: services.id });
        relinked += rows.length;
      } else if (c.kind === 'retired') {
        // The service keeps its frequency and due-date rule as the firm's own; only the link goes.
        const rows = await tx
          .update(services)
          .set({ statutoryFilingCode: null, updatedAt: new Date() })
          .where(and(eq(services.orgId, scope.orgId), eq(services.statutoryFilingCode, c.code)))
          .returning({ id: services.id });
        unlinked += rows.length;
      }
    }
    await tx
      .update(orgs)
      .set({ statutoryCatalogueVersion: to.version, updatedAt: new Date() })
      .where(eq(orgs.id, scope.orgId));
    const count = (kind: TFilingChange['kind']) => changes.filter((c) => c.kind === kind).length;
    await audit(tx, actorOf(scope, meta), {
      action: 'statutory_catalogue.accept',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `Accepted the statutory catalogue ${to.version} (was ${current}): ${count('added')} filings added, ${count('changed')} changed, ${count('retired')} retired; ${moved.projects} projects, ${moved.tasks} tasks, ${moved.reminders} reminders, ${moved.requests} requests moved; ${relinked} services updated, ${unlinked} unlinked`,
      changes: { statutoryCatalogueVersion: { from: current, to: to.version } },
    });
    const { clientIds, ...counts } = moved;
    return {
      version: to.version,
      ...counts,
      clients: clientIds.length,
      servicesUpdated: relinked,
      servicesUnlinked: unlinked,
    };
  });
}
