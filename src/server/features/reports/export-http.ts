import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  REPORT_EXPORTS,
  type TReportExport,
  ZBillingSummary,
  ZClientSummary,
  ZServicesSummary,
  ZTeamSummary,
} from '../../../domain/reports';
import { ZRequestsOutstanding } from '../../../domain/requests/report';
import { actorOf, requestMeta, routeStaffScope, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { csvWriter, xlsxWriter } from '../clients';
import { audit } from '../system-log';
import { billingTable } from './billing-export';
import { clientSummary, rankClients } from './client-summary';
import { requestsTable } from './requests-outstanding';
import { servicesSummary } from './services-summary';
import { teamSummary } from './team-summary';

// Every row the filters cover, in the screen's sort, written out row by row into the streaming CSV
// or workbook. The client summary is read a page at a time through the same page-first query the
// screen uses, so the server holds one page, not the firm; the smaller team and services reports,
// one query.
const ALL_ROWS = 1_000_000;
const EXPORT_PAGE = 1_000;
const hours = (m: number) => (m / 60).toFixed(2);
const share = (v: number | null) => (v === null ? '' : String(v));
const money = (v: number | undefined) => (v === undefined ? '' : (v / 100).toFixed(2));

type TTable = {
  headers: string[];
  rows: Iterable<string[]> | AsyncIterable<string[]>;
  count: number;
  title: string;
};

async function table(
  db: TDb,
  scope: TScope,
  report: TReportExport,
  query: unknown,
): Promise<TTable | string> {
  const parsed = {
    client: ZClientSummary,
    team: ZTeamSummary,
    services: ZServicesSummary,
    billing: ZBillingSummary,
    requests: ZRequestsOutstanding,
  }[report].safeParse(query);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'The filter is not valid';
  const input = { ...parsed.data, page: 1, pageSize: ALL_ROWS };
  if (report === 'billing') return billingTable(db, scope, input as z.output<typeof ZBillingSummary>);
  if (report === 'requests') return requestsTable(db, scope, input as z.output<typeof ZRequestsOutstanding>);
  if (report === 'client') {
    const clientInput = input as z.output<typeof ZClientSummary>;
    // By a measure: the clients ranked once (that measure alone for each), then measured 1,000 at a
    // time in that order, so no one statement holds PGlite's thread for the whole firm.
    const ranked = clientInput.sort === 'name' ? null : await rankClients(db, scope, clientInput);
    const pageOf = (page: number) =>
      clientSummary(
        db,
        scope,
        { ...clientInput, page, pageSize: EXPORT_PAGE },
        {
          totals: false,
          ...(ranked ? { ids: ranked.slice((page - 1) * EXPORT_PAGE, page * EXPORT_PAGE) } : {}),
        },
      );
    const r = await pageOf(1);
    const toRow = (x: (typeof r.rows)[number]) => [
      x.code,
      x.name,
      x.groupName ?? '',
      String(x.projects),
      String(x.projectsCompleted),
      String(x.tasks.scheduled),
      String(x.tasks.inProgress),
      String(x.tasks.inReview),
      String(x.tasks.completed),
      String(x.overdue),
      share(x.onTimeShare),
      String(x.pendingTodos),
      hours(x.billableMinutes),
      hours(x.otherMinutes),
      hours(x.budgetMinutes),
      hours(x.actualMinutes),
      ...(r.money ? [money(x.billableValue)] : []),
    ];
    async function* rows() {
      let current = r;
      for (let page = 1; ; page += 1) {
        if (page > 1) current = await pageOf(page);
        for (const x of current.rows) yield toRow(x);
        if (page * EXPORT_PAGE >= r.total) return;
      }
    }
    return {
      title: 'Client summary',
      headers: [
        'Code',
        'Client',
        'Group',
        'Projects',
        'Projects completed',
        'Scheduled',
        'In progress',
        'In review',
        'Completed',
        'Overdue',
        'On time %',
        'Client to-dos',
        'Billable hours',
        'Other hours',
        'Budget hours',
        'Actual hours',
        ...(r.money ? ['Billable value'] : []),
      ],
      rows: rows(),
      count: r.total,
    };
  }
  if (report === 'team') {
    const r = await teamSummary(db, scope, input as z.output<typeof ZTeamSummary>);
    return {
      title: 'Team summary',
      headers: [
        'Member',
        'Open tasks',
        'Overdue',
        'Work ahead hours',
        'Available hours ahead',
        'Load %',
        'Completed',
        'Hours logged',
        'Billable %',
        'Available hours',
        'Utilisation %',
        ...(r.money ? ['Billable value', 'Cost'] : []),
      ],
      rows: r.rows.map((x) => [
        x.name,
        String(x.openTasks),
        String(x.overdue),
        hours(x.workAheadMinutes),
        hours(x.availableAheadMinutes),
        share(x.load),
        String(x.completed),
        hours(x.minutes),
        share(x.billableShare),
        hours(x.availableMinutes),
        share(x.utilisation),
        ...(r.money ? [money(x.billableValue), money(x.cost)] : []),
      ]),
      count: r.rows.length,
    };
  }
  const r = await servicesSummary(db, scope, input as z.output<typeof ZServicesSummary>);
  return {
    title: 'Services summary',
    headers: [
      'Code',
      'Service',
      'Frequency',
      'Engagements',
      'Expected',
      'Created',
      'Completed',
      'On time',
      'Late',
      'Not started',
      'Average cycle days',
      'Budget hours',
      'Actual hours',
    ],
    rows: r.rows.map((x) => [
      x.code,
      x.name,
      x.frequency,
      String(x.engagements),
      String(x.expected),
      String(x.created),
      String(x.completed),
      String(x.onTime),
      String(x.late),
      String(x.notStarted),
      x.avgCycleDays === null ? '' : String(x.avgCycleDays),
      hours(x.budgetMinutes),
      hours(x.actualMinutes),
    ]),
    count: r.rows.length,
  };
}

/**
 * GET /api/reports/{client|team|services}/export.{csv|xlsx}?{the report's filters}: exactly the rows
 * the filters cover (all pages), money columns only for callers who see money, each export logged.
 */
export function registerReportExports(app: FastifyInstance, deps: { db: TDb }) {
  for (const report of REPORT_EXPORTS) {
    for (const ext of ['csv', 'xlsx'] as const) {
      app.get(
        `/api/reports/${report}/export.${ext}`,
        { config: { auth: { staff: 'reports.view' }, link: 'reports.export' } },
        async (req, reply) => {
          const scope = routeStaffScope(req);
          const t = await table(deps.db, scope, report, req.query ?? {});
          if (typeof t === 'string') return reply.code(400).send({ error: 'BAD_REQUEST', message: t });
          await deps.db.transaction((tx) =>
            audit(tx, actorOf(scope, requestMeta(req)), {
              action: 'report.export',
              recordType: 'report',
              summary: `Exported the ${t.title.toLowerCase()} (${t.count} row${t.count === 1 ? '' : 's'}) to ${ext.toUpperCase()}`,
            }),
          );
          reply
            .type(
              ext === 'csv'
                ? 'text/csv; charset=utf-8'
                : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            )
            .header('content-disposition', `attachment; filename="${report}-summary.${ext}"`)
            .header('cache-control', 'no-store')
            .header('x-total-count', String(t.count));
          if (ext === 'xlsx') {
            const xlsx = await xlsxWriter(t.title, t.headers);
            (async () => {
              for await (const row of t.rows) xlsx.add(row);
              await xlsx.end();
            })().catch((err) => {
              req.log.error({ err }, 'report export failed');
              xlsx.stream.destroy(err);
            });
            return reply.send(xlsx.stream);
          }
          const csv = csvWriter(t.headers);
          pipeline(Readable.from(t.rows), csv).catch((err) => req.log.error({ err }, 'report export failed'));
          return reply.send(csv);
        },
      );
    }
  }
}
