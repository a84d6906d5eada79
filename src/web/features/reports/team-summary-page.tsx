import { todayIn } from '@domain/days';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { type DataTableColumn, ListScreen, PageHeader, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { Figure } from './client-summary-page';
import { ExportButtons } from './export-buttons';
import { HeatMap } from './heat-map';
import { hours, pct, ReportFilters } from './report-filters';
import { Missing, ReportGaps } from './report-gaps';
import { filtersOf, reportPaging, type TReportSearch } from './report-search';
import { SavedViews } from './saved-views';

const route = getRouteApi('/_main/reports/team/summary');

/** /reports/team/summary: per member, work ahead against capacity, completions, time and utilisation. */
export function TeamSummaryPage() {
  if (!useCan('reports.view')) return <NoAccess message="Your role does not include reports." />;
  return <TeamSummary />;
}

function TeamSummary() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const today = todayIn(format.timeZone);
  const filters = filtersOf(search, today);
  const report = useQuery(
    trpc.reports.teamSummary.queryOptions({
      ...filters,
      ...reportPaging(search),
    }),
  );
  const data = report.data;
  type TRow = NonNullable<typeof data>['rows'][number];
  const set = (patch: Partial<TReportSearch>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  const columns: DataTableColumn<TRow>[] = [
    { id: 'name', header: 'Member', cell: (r) => r.name, sortable: true, truncate: true, primary: true },
    {
      id: 'openTasks',
      header: 'Open',
      cell: (r) => r.openTasks,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'overdue',
      header: 'Overdue',
      cell: (r) => r.overdue,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'workAhead',
      header: 'Ahead h',
      // Zero ahead beside open tasks without a budget is an unknown, not a free diary.
      cell: (r) =>
        !r.workAheadMinutes && r.unbudgetedTasks ? (
          <Missing text="No budget" />
        ) : (
          hours(r.workAheadMinutes, format)
        ),
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    {
      id: 'available',
      header: 'Free h',
      cell: (r) => hours(r.availableAheadMinutes, format),
      className: 'text-right',
    },
    {
      id: 'load',
      header: 'Load',
      cell: (r) =>
        !r.workAheadMinutes && r.unbudgetedTasks ? <Missing text="—" label="Unknown" /> : pct(r.load),
      className: 'text-right',
    },
    {
      id: 'completed',
      header: 'Done',
      cell: (r) => r.completed,
      sortable: true,
      sortDescFirst: true,
      // The least needed at 1280 px, where twelve columns with "No budget" and "No rate" would not
      // fit (the export has it).
      className: 'hidden text-right 2xl:table-cell',
    },
    {
      id: 'minutes',
      header: 'Logged h',
      cell: (r) => hours(r.minutes, format),
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
    { id: 'billableShare', header: 'Billable', cell: (r) => pct(r.billableShare), className: 'text-right' },
    { id: 'utilisation', header: 'Utilised', cell: (r) => pct(r.utilisation), className: 'text-right' },
    ...(data?.money
      ? [
          {
            id: 'value',
            header: 'Value',
            cell: (r: TRow) =>
              !r.billableValue && r.unratedMinutes ? (
                <Missing text="No rate" />
              ) : (
                format.moneyMinor(r.billableValue ?? 0)
              ),
            className: 'text-right',
          },
          {
            id: 'cost',
            header: 'Cost',
            cell: (r: TRow) =>
              !r.cost && r.uncostedMinutes ? <Missing text="No rate" /> : format.moneyMinor(r.cost ?? 0),
            className: 'text-right',
          },
        ]
      : []),
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports', to: '/reports' }, { label: 'Team summary' }]}
        title="Team summary"
        description={`Open work now, and what was done ${format.dateRange(filters.from, filters.to)}`}
        actions={
          <>
            <SavedViews report="team" search={search} onApply={(s) => navigate({ search: s })} />
            <ExportButtons
              report="team"
              input={{ ...filters, sort: search.sort, direction: search.direction }}
            />
          </>
        }
      />
      <ReportFilters
        search={search}
        period={filters}
        onChange={set}
        show={['memberId', 'groupId', 'serviceId', 'clientStatus', 'tag']}
      />
      {data?.totals ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
          <Figure label="Open tasks" value={format.number(data.totals.openTasks)} />
          <Figure label="Overdue" value={format.number(data.totals.overdue)} />
          <Figure label="Completed" value={format.number(data.totals.completed)} />
          <Figure label="Billable" value={pct(data.totals.billableShare)} />
        </dl>
      ) : null}
      <ReportGaps totals={data?.totals} money={!!data?.money} />
      <ListScreen
        url={{ search, setSearch: set }}
        query={{ ...reportPaging(search), pageSize: data?.pageSize ?? 50 }}
        list={report}
        pageSizes={false}
        label="Team summary"
        columns={columns}
        getRowId={(r) => r.id}
        empty="No members match these filters."
      />
      <p className="text-xs text-muted-fg">
        Ahead: the budgeted hours of open tasks, shared among their assignees. Free: the hours free in the
        next four weeks (work pattern, holidays and leave); load is the one against the other.
      </p>
      {data ? <HeatMap rows={data.heatMap} /> : null}
    </div>
  );
}
