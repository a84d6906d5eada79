import { todayIn } from '@domain/days';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type DataTableColumn, ListScreen, PageHeader, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { ExportButtons } from './export-buttons';
import { hours, pct, ReportFilters } from './report-filters';
import { Missing, ReportGaps } from './report-gaps';
import { filtersOf, reportPaging, type TReportSearch } from './report-search';
import { SavedViews } from './saved-views';
import { StatusBars } from './status-chart';

const route = getRouteApi('/_main/reports/client/summary');

type TRow = NonNullable<ReturnType<typeof useClientSummary>['data']>['rows'][number];

function useClientSummary(search: TReportSearch, today: string) {
  return useQuery(
    trpc.reports.clientSummary.queryOptions({
      ...filtersOf(search, today),
      ...reportPaging(search),
    }),
  );
}

/** /reports/client/summary: per client, work by status, overdue, on-time share, to-dos, time and budget. */
export function ClientSummaryPage() {
  if (!useCan('reports.view')) return <NoAccess message="Your role does not include reports." />;
  return <ClientSummary />;
}

function ClientSummary() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const today = todayIn(format.timeZone);
  const filters = filtersOf(search, today);
  const report = useClientSummary(search, today);
  const data = report.data;
  const set = (patch: Partial<TReportSearch>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Client',
      cell: (r) => `${r.name} (${r.code})`,
      sortable: true,
      truncate: true,
      // Narrower than a list's name column: with Billable value and its "No rate", ten columns must
      // fit at 1280 px (the full name shows on hover).
      minWidth: 6.5,
      primary: true,
    },
    {
      id: 'projects',
      header: 'Projects',
      cell: (r) => `${r.projectsCompleted} / ${r.projects}`,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'openTasks',
      header: 'Open',
      cell: (r) => r.openTasks,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    { id: 'completedTasks', header: 'Done', cell: (r) => r.tasks.completed, className: 'text-right' },
    {
      id: 'overdue',
      header: 'Overdue',
      cell: (r) => r.overdue,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'onTimeShare',
      header: 'On time',
      cell: (r) => pct(r.onTimeShare),
      sortable: true,
      className: 'text-right',
    },
    {
      id: 'pendingTodos',
      header: 'To-dos',
      cell: (r) => r.pendingTodos,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'minutes',
      header: 'Hours bill. / other',
      cell: (r) => `${hours(r.billableMinutes, format)} / ${hours(r.otherMinutes, format)}`,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'budget',
      header: 'Budget / actual h',
      cell: (r) =>
        r.budgetMinutes ? `${hours(r.budgetMinutes, format)} / ${hours(r.actualMinutes, format)}` : '—',
      className: 'text-right',
    },
    ...(data?.money
      ? [
          {
            id: 'value',
            header: 'Billable value',
            cell: (r: TRow) =>
              !r.billableValue && r.unratedMinutes ? (
                <Missing text="No rate" />
              ) : (
                format.moneyMinor(r.billableValue ?? 0)
              ),
            className: 'text-right',
          },
        ]
      : []),
    {
      id: 'lastActivity',
      header: 'Last activity',
      cell: (r) => (r.lastActivity ? format.date(r.lastActivity) : '—'),
      // The least needed at 1280 px, where the columns would not fit with it (the export has it).
      className: 'hidden 2xl:table-cell',
    },
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports', to: '/reports' }, { label: 'Client summary' }]}
        title="Client summary"
        description={`Work due ${format.dateRange(filters.from, filters.to)}, time logged in it, and what is open now`}
        actions={
          <>
            <SavedViews report="client" search={search} onApply={(s) => navigate({ search: s })} />
            <ExportButtons
              report="client"
              input={{ ...filters, sort: search.sort, direction: search.direction }}
            />
          </>
        }
      />
      <ReportFilters
        search={search}
        period={filters}
        onChange={set}
        show={['groupId', 'serviceId', 'memberId', 'clientType', 'clientStatus', 'tag']}
      />
      {data?.totals ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
          <Figure label="Clients" value={format.number(data.total)} />
          <Figure label="Overdue tasks" value={format.number(data.totals.overdue)} />
          <Figure label="On time" value={pct(data.totals.onTimeShare)} />
          <Figure
            label="Hours logged"
            value={hours(data.totals.billableMinutes + data.totals.otherMinutes, format)}
          />
        </dl>
      ) : null}
      <StatusBars
        tableId="client-summary-table"
        label="Tasks by status, this page's clients"
        rows={(data?.rows ?? []).slice(0, 15).map((r) => ({ name: r.name, ...r.tasks }))}
      />
      <ReportGaps totals={data?.totals} money={!!data?.money} />
      <div id="client-summary-table">
        <ListScreen
          url={{ search, setSearch: set }}
          query={{ ...reportPaging(search), pageSize: data?.pageSize ?? 50 }}
          list={report}
          pageSizes={false}
          label="Client summary"
          columns={columns}
          getRowId={(r) => r.id}
          rowLink={(r) => ({
            to: '/clients/$id/tasks',
            params: { id: r.id },
            // The tasks the row counts: due in the report's period, completed ones too. The tasks
            // list has no service, group or member-of-the-client-team filter, so those stay here.
            search: { dueFrom: filters.from, dueTo: filters.to, completed: true },
          })}
          empty="No clients match these filters."
        />
      </div>
      <p className="text-xs text-muted-fg">
        A row opens the client's tasks due in the period. Overdue counts open tasks due before today; on time
        counts tasks completed on or before their due date.{' '}
        <Link to="/reports" className="underline">
          All reports
        </Link>
      </p>
    </div>
  );
}

export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-border bg-surface p-3">
      <dt className="text-xs text-muted-fg">{label}</dt>
      <dd className="text-lg font-semibold text-fg tabular-nums">{value}</dd>
    </div>
  );
}
