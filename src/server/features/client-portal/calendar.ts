import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { todayIn } from '../../../domain/days';
import { OPEN_REQUEST_STATUSES } from '../../../domain/requests/constants';
import {
  catalogueRelease,
  countryOfFiling,
  filingsOf,
  type TFiling,
} from '../../../domain/statutory/catalogue';
import { EMPTY_REGISTRATIONS, factsOf } from '../../../domain/statutory/registrations';
import { applicableFilings, filingPeriodContaining, filingYear } from '../../../domain/statutory/rules';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clientRegistrations, clients, orgs, projects, requests, services, tasks } from '../../db/schema';

// The client's own filing calendar in the portal (issue 39): by fiscal year, each filing its
// registrations call for, with its due date (an applied extension's, through the project), its status
// and what the client must still send for it. Never the firm's internal notes or people.

/** `past`: the date has gone by and the firm had no work for it here (before it kept the calendar). */
export type TCalendarStatus = 'filed' | 'in_progress' | 'waiting_on_you' | 'due' | 'past';

export async function portalCalendar(
  db: TExecutor,
  access: TPortalClientAccess,
  input: { year?: number | undefined },
) {
  const [client] = await db
    .select({ type: clients.type, timeZone: orgs.timeZone, catalogueVersion: orgs.statutoryCatalogueVersion })
    .from(clients)
    .innerJoin(orgs, eq(orgs.id, clients.orgId))
    .where(and(eq(clients.orgId, access.orgId), eq(clients.id, access.clientId)))
    .limit(1);
  const [registration] = await db
    .select()
    .from(clientRegistrations)
    .where(
      and(eq(clientRegistrations.orgId, access.orgId), eq(clientRegistrations.clientId, access.clientId)),
    )
    .limit(1);
  const today = todayIn(client?.timeZone ?? 'UTC');
  const filings = applicableFilings(
    factsOf(
      client?.type ?? 'individual',
      registration ? { ...EMPTY_REGISTRATIONS, ...registration } : EMPTY_REGISTRATIONS,
    ),
    // The firm's accepted version of the catalogue, as its own screens show.
    filingsOf(catalogueRelease(client?.catalogueVersion)),
  );
  const year = input.year ?? currentFiscalYear(filings[0], today);
  const occurrences = filings.flatMap((f) => filingYear(f, year));
  const codes = filings.map((f) => f.code);
  const keys = [...new Set(occurrences.map((o) => o.period.key))];
  const found = codes.length
    ? await db
        .select({
          id: projects.id,
          filingCode: services.statutoryFilingCode,
          periodKey: projects.periodKey,
          status: projects.status,
          dueDate: projects.dueDate,
        })
        .from(projects)
        .innerJoin(services, and(eq(services.orgId, projects.orgId), eq(services.id, projects.serviceId)))
        .where(
          and(
            eq(projects.orgId, access.orgId),
            eq(projects.clientId, access.clientId),
            isNull(projects.archivedAt),
            inArray(services.statutoryFilingCode, codes),
            inArray(projects.periodKey, keys.length ? keys : ['-']),
          ),
        )
    : [];
  const ids = found.map((p) => p.id);
  const [toSend, asked] = ids.length
    ? await Promise.all([
        db
          .select({ projectId: tasks.projectId, title: tasks.title })
          .from(tasks)
          .where(
            and(
              eq(tasks.orgId, access.orgId),
              inArray(tasks.projectId, ids),
              eq(tasks.forClient, true),
              ne(tasks.status, 'COMPLETED'),
            ),
          )
          .orderBy(tasks.dueDate, tasks.id),
        db
          .select({ projectId: requests.projectId, title: requests.title })
          .from(requests)
          .where(
            and(
              eq(requests.orgId, access.orgId),
              eq(requests.clientId, access.clientId),
              inArray(requests.projectId, ids),
              sql`${requests.status} in (${sql.join(
                OPEN_REQUEST_STATUSES.map((s) => sql`${s}`),
                sql`, `,
              )})`,
            ),
          ),
      ])
    : [[], []];
  const rows = occurrences.map((o) => {
    const project = found.find((p) => p.filingCode === o.filing.code && p.periodKey === o.period.key);
    const waiting = project
      ? [
          ...toSend.filter((t) => t.projectId === project.id).map((t) => t.title),
          ...asked.filter((r) => r.projectId === project.id).map((r) => r.title),
        ]
      : [];
    const status: TCalendarStatus =
      project?.status === 'COMPLETED'
        ? 'filed'
        : waiting.length
          ? 'waiting_on_you'
          : project && project.status !== 'SCHEDULED'
            ? 'in_progress'
            : !project && o.due < today
              ? 'past'
              : 'due';
    return {
      key: `${o.filing.code}|${o.period.key}`,
      filing: o.filing.name,
      form: o.filing.form,
      authority: o.filing.authority,
      period: o.period.label,
      due: project?.dueDate ?? o.due,
      extended: !!project?.dueDate && project.dueDate > o.due,
      status,
      overdue: !!project && status !== 'filed' && (project.dueDate ?? o.due) < today,
      waiting,
    };
  });
  rows.sort((a, b) => a.due.localeCompare(b.due) || a.filing.localeCompare(b.filing));
  return { year, label: fiscalLabel(year, filings[0]), today, rows };
}

function currentFiscalYear(filing: TFiling | undefined, today: string) {
  if (!filing) return Number(today.slice(0, 4)) - (Number(today.slice(5, 7)) < 4 ? 1 : 0);
  const month = countryOfFiling(filing).fiscalYearStartMonth;
  const start = filingPeriodContaining(filing, today).start;
  return Number(start.slice(0, 4)) - (Number(start.slice(5, 7)) < month ? 1 : 0);
}

const fiscalLabel = (year: number, filing: TFiling | undefined) =>
  filing && countryOfFiling(filing).fiscalYearStartMonth === 1
    ? String(year)
    : `FY ${year}-${String((year + 1) % 100).padStart(2, '0')}`;
