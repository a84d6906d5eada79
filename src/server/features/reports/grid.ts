import { TRPCError } from '@trpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ONE_TIME_PERIOD_KEY, periodsBetween, type TPeriod } from '../../../domain/periods';
import {
  GRID_STATES,
  gridState,
  MAX_GRID_PERIODS,
  type TGridState,
  type ZComplianceGrid,
} from '../../../domain/reports';
import { countryOfFiling, filingsOf, findFiling } from '../../../domain/statutory/catalogue';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { services } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { applicableCodesSql, firmRelease } from '../statutory';
import { clientsWhere, num, reportContext } from './scope';

export type TGridCell = {
  periodKey: string;
  state: TGridState;
  projectId: string | null;
  dueDate: string | null;
  /** The cell's project has a client request sent and not yet submitted (issue 36). */
  waitingOnClient: boolean;
};

type TProjectCell = { key: string; id: string; status: string; due: string | null; waiting: boolean };
type TEngagement = { start: string; end: string | null };

function filingFiscalStart(code: string | null): number | null {
  const filing = findFiling(code);
  return filing ? countryOfFiling(filing).fiscalYearStartMonth : null;
}

/**
 * ★ The compliance grid: for one service, the covered clients engaged for it down the side (a page of
 * them, by name) and the service's periods of the range across. One query: the page of clients, each
 * with its projects of those periods and its engagements as JSON, and the whole set's count of each
 * state per period for the column totals.
 */
export async function complianceGrid(db: TExecutor, scope: TScope, input: z.output<typeof ZComplianceGrid>) {
  const ctx = await reportContext(db, scope, input);
  const o = scope.orgId;
  const [service] = await db
    .select({
      id: services.id,
      name: services.name,
      frequency: services.frequency,
      filingCode: services.statutoryFilingCode,
    })
    .from(services)
    .where(and(eq(services.orgId, o), eq(services.id, input.serviceId)));
  if (!service) throw new TRPCError({ code: 'NOT_FOUND', message: 'Service not found' });
  // The firm's accepted catalogue version decides who must make the linked filing.
  const firmFilings = service.filingCode ? filingsOf(await firmRelease(db, o)) : undefined;
  const periods: TPeriod[] =
    service.frequency === 'one_time'
      ? [{ key: ONE_TIME_PERIOD_KEY, label: 'Once', start: input.from, end: input.to }]
      : // A service linked to a filing counts its periods as its projects do: by the filing's
        // country's fiscal year, not the firm's.
        periodsBetween(
          service.frequency,
          filingFiscalStart(service.filingCode) ?? ctx.fiscalYearStartMonth,
          input.from,
          input.to,
        );
  if (periods.length > MAX_GRID_PERIODS) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `The grid shows at most ${MAX_GRID_PERIODS} periods: choose a shorter range`,
    });
  }
  const keys = `{${periods.map((p) => `"${p.key}"`).join(',')}}`;
  const result = await db.execute(sql`
    with c as (
      select c.id, c.code, c.name,
        exists (select 1 from client_services cs where cs.org_id = ${o} and cs.client_id = c.id
          and cs.service_id = ${service.id}) as engaged
      from clients c
      ${service.filingCode ? sql`left join client_registrations r on r.org_id = c.org_id and r.client_id = c.id` : sql``}
      where ${clientsWhere(scope, { ...input, serviceId: undefined })}
        and (exists (select 1 from client_services cs where cs.org_id = ${o} and cs.client_id = c.id
          and cs.service_id = ${service.id})
          -- A service linked to a statutory filing also lists who must make it and is not engaged
          -- (issue 39's gaps): their cells are all "not engaged".
          ${service.filingCode ? sql`or (r.client_id is not null and (${applicableCodesSql(service.filingCode, firmFilings)})[1] is not null)` : sql``})
    ),
    pg as (
      select c.*, count(*) over () as total, row_number() over (order by c.name, c.id) as rn from c
    )
    select pg.id, pg.code, pg.name, pg.engaged, pg.total,
      (select coalesce(json_agg(json_build_object('key', p.period_key, 'id', p.id, 'status', p.status,
          'due', to_char(p.due_date, 'YYYY-MM-DD'),
          'waiting', exists (select 1 from requests r where r.org_id = ${o} and r.project_id = p.id
            and r.status in ('sent', 'in_progress', 'returned')))), '[]'::json)
        from projects p where p.org_id = ${o} and p.client_id = pg.id and p.service_id = ${service.id}
          and p.archived_at is null and p.period_key = any(${keys}::text[])) as projects,
      (select coalesce(json_agg(json_build_object('start', to_char(cs.start_date, 'YYYY-MM-DD'),
          'end', to_char(cs.end_date, 'YYYY-MM-DD'))), '[]'::json)
        from client_services cs where cs.org_id = ${o} and cs.client_id = pg.id and cs.service_id = ${service.id}) as engagements
    from pg where rn > ${(input.page - 1) * input.pageSize} and rn <= ${input.page * input.pageSize}
    order by rn`);
  const raw = rowsOf<{
    id: string;
    code: string;
    name: string;
    engaged: boolean;
    total: unknown;
    projects: unknown;
    engagements: unknown;
  }>(result);
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  const rows = raw.map((r) => {
    const projects = parse<TProjectCell[]>(r.projects);
    const engagements = parse<TEngagement[]>(r.engagements);
    const cells: TGridCell[] = periods.map((p) => {
      const project = projects.find((x) => x.key === p.key) ?? null;
      const engaged = engagements.some((e) => e.start <= p.end && (!e.end || e.end >= p.start));
      return {
        periodKey: p.key,
        state: gridState(
          project ? { status: project.status, dueDate: project.due } : null,
          engaged,
          ctx.today,
        ),
        projectId: project?.id ?? null,
        dueDate: project?.due ?? null,
        waitingOnClient: project?.waiting === true,
      };
    });
    // `gap`: must make the service's statutory filing by its registrations, and has no engagement.
    return { clientId: r.id, code: r.code, name: r.name, gap: !r.engaged, cells };
  });
  const counts = Object.fromEntries(GRID_STATES.map((s) => [s, 0])) as Record<TGridState, number>;
  for (const row of rows) for (const cell of row.cells) counts[cell.state] += 1;
  return {
    service,
    periods: periods.map((p) => ({ key: p.key, label: p.label || p.key, start: p.start, end: p.end })),
    rows,
    /** The page's cells by state. */
    counts,
    total: raw[0] ? num(raw[0].total) : 0,
    page: input.page,
    pageSize: input.pageSize,
    today: ctx.today,
  };
}
