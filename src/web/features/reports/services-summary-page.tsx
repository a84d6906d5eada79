import { todayIn } from '@domain/days';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  DataTable,
  type DataTableColumn,
  ListScreen,
  PageHeader,
  TabNav,
  tabClasses,
  useFormat,
} from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { Figure } from './client-summary-page';
import { ComplianceGrid } from './compliance-grid';
import { ExportButtons } from './export-buttons';
import { hours, pct, ReportFilters } from './report-filters';
import { filtersOf, reportPaging, type TReportSearch } from './report-search';
import { SavedViews } from './saved-views';
import { CHART_COLOURS, SeriesBars } from './status-chart';

const route = getRouteApi('/_main/reports/services/summary');

/** /reports/services/summary: per service, expected work against what was made and done; ?view=grid the compliance grid. */
export function ServicesSummaryPage() {
  if (!useCan('reports.view')) return <NoAccess message="Your role does not include reports." />;
  return <ServicesReports />;
}

function ServicesReports() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const set = (patch: Partial<TReportSearch>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  const grid = search.view === 'grid';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[
          { label: 'Reports', to: '/reports' },
          { label: grid ? 'Compliance grid' : 'Services summary' },
        ]}
        title={grid ? 'Compliance grid' : 'Services summary'}
        description={
          grid
            ? 'Each engaged client’s periods of one service: filed, in progress, due, overdue or not started'
            : 'Per service, the projects the engagements call for against those made, completed and late'
        }
        actions={
          <SavedViews
            report={grid ? 'grid' : 'services'}
            search={search}
            onApply={(s) => navigate({ search: s })}
          />
        }
      />
      <TabNav label="Services reports">
        <Link
          to="/reports/services/summary"
          search={(s) => ({ ...s, view: undefined, page: undefined, sort: undefined })}
          activeOptions={{ explicitUndefined: true }}
          className={tabClasses}
        >
          Summary
        </Link>
        <Link
          to="/reports/services/summary"
          search={(s) => ({ ...s, view: 'grid' as const, page: undefined, sort: undefined })}
          className={tabClasses}
        >
          Compliance grid
        </Link>
      </TabNav>
      {grid ? (
        <ComplianceGrid search={search} onChange={set} />
      ) : (
        <ServicesSummary search={search} onChange={set} />
      )}
    </div>
  );
}

function ServicesSummary({
  search,
  onChange,
}: {
  search: TReportSearch;
  onChange: (p: Partial<TReportSearch>) => void;
}) {
  const format = useFormat();
  const today = todayIn(format.timeZone);
  const filters = filtersOf(search, today);
  const report = useQuery(
    trpc.reports.servicesSummary.queryOptions({
      ...filters,
      ...reportPaging(search),
    }),
  );
  const data = report.data;
  type TRow = NonNullable<typeof data>['rows'][number];
  const notStarted = search.serviceId;
  const columns: DataTableColumn<TRow>[] = [
    { id: 'name', header: 'Service', cell: (r) => r.name, sortable: true, truncate: true, primary: true },
    {
      id: 'engagements',
      header: 'Engaged',
      cell: (r) => r.engagements,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'expected',
      header: 'Expected',
      cell: (r) => r.expected,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    { id: 'created', header: 'Created', cell: (r) => r.created, className: 'text-right' },
    {
      id: 'completed',
      header: 'Completed',
      cell: (r) => r.completed,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    { id: 'onTime', header: 'On time', cell: (r) => r.onTime, className: 'text-right' },
    {
      id: 'late',
      header: 'Late',
      cell: (r) => r.late,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'notStarted',
      header: 'Not started',
      cell: (r) => r.notStarted,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'cycle',
      header: 'Cycle days',
      cell: (r) => (r.avgCycleDays === null ? '—' : format.number(r.avgCycleDays)),
      className: 'text-right',
    },
    {
      id: 'budget',
      header: 'Budget / actual h',
      cell: (r) =>
        r.budgetMinutes ? `${hours(r.budgetMinutes, format)} / ${hours(r.actualMinutes, format)}` : '—',
      className: 'text-right',
    },
  ];
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ReportFilters
          search={search}
          period={filters}
          onChange={onChange}
          show={['serviceId', 'groupId', 'memberId', 'clientType', 'clientStatus', 'tag']}
        />
        <ExportButtons
          report="services"
          input={{ ...filters, sort: search.sort, direction: search.direction }}
        />
      </div>
      {data?.totals ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
          <Figure label="Expected projects" value={format.number(data.totals.expected)} />
          <Figure label="Completed" value={format.number(data.totals.completed)} />
          <Figure label="On time" value={pct(data.totals.onTimeShare)} />
          <Figure label="Not started" value={format.number(data.totals.notStarted)} />
        </dl>
      ) : null}
      <SeriesBars
        tableId="services-summary-table"
        label="Expected, created and completed projects per service"
        rows={(data?.rows ?? [])
          .filter((r) => r.expected > 0)
          .slice(0, 12)
          .map((r) => ({ name: r.name, expected: r.expected, created: r.created, completed: r.completed }))}
        series={[
          { key: 'expected', label: 'Expected', colour: CHART_COLOURS.scheduled },
          { key: 'created', label: 'Created', colour: CHART_COLOURS.inProgress },
          { key: 'completed', label: 'Completed', colour: CHART_COLOURS.completed },
        ]}
      />
      <div id="services-summary-table">
        <ListScreen
          url={{ search, setSearch: onChange }}
          query={{ ...reportPaging(search), pageSize: data?.pageSize ?? 50 }}
          list={report}
          pageSizes={false}
          label="Services summary"
          columns={columns}
          getRowId={(r) => r.id}
          rowLink={(r) => ({
            to: '/reports/services/summary',
            search: { ...search, view: 'grid', serviceId: r.id, page: undefined, sort: undefined },
          })}
          empty="No services match these filters."
        />
      </div>
      {notStarted ? (
        <NotStarted search={search} serviceId={notStarted} />
      ) : (
        <p className="text-xs text-muted-fg">
          Choose a service to list the clients engaged for it whose work for a period was never started.
        </p>
      )}
    </>
  );
}

function NotStarted({ search, serviceId }: { search: TReportSearch; serviceId: string }) {
  const format = useFormat();
  const filters = filtersOf(search, todayIn(format.timeZone));
  const list = useQuery(
    trpc.reports.notStarted.queryOptions({ ...filters, serviceId, page: 1, pageSize: 100 }),
  );
  type TRow = NonNullable<typeof list.data>['rows'][number];
  return (
    <section aria-labelledby="not-started-title" className="flex flex-col gap-2">
      <h2 id="not-started-title" className="text-sm font-semibold text-fg">
        Engaged, never started ({format.number(list.data?.total ?? 0)})
      </h2>
      <DataTable<TRow>
        label="Engaged clients with no project for a period"
        columns={[
          {
            id: 'name',
            header: 'Client',
            cell: (r) => `${r.name} (${r.code})`,
            truncate: true,
            primary: true,
          },
          { id: 'period', header: 'Period', cell: (r) => format.dateRange(r.periodStart, r.periodEnd) },
        ]}
        rows={list.data?.rows ?? []}
        getRowId={(r) => `${r.clientId}-${r.periodKey}`}
        total={Math.min(list.data?.total ?? 0, 100)}
        page={1}
        pageSize={100}
        loading={list.isPending}
        onPageChange={() => {}}
        rowLink={(r) => ({ to: '/clients/$id/services', params: { id: r.clientId } })}
        empty="Every engaged client has its projects for this range."
      />
    </section>
  );
}
