import { todayIn } from '@domain/days';
import { GRID_STATE_LABEL, GRID_STATES, type TGridState } from '@domain/reports';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Pagination, Skeleton, useFormat } from '@web/ui';
import { Hourglass } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { ReportFilters } from './report-filters';
import { filtersOf, type TReportSearch } from './report-search';

const CELL: Record<TGridState, string> = {
  filed: 'bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-100',
  in_progress: 'bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-100',
  due: 'bg-muted text-fg',
  overdue: 'bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100',
  not_started:
    'bg-orange-100 text-orange-900 ring-1 ring-orange-400 dark:bg-orange-900/40 dark:text-orange-100',
  not_engaged: 'text-muted-fg',
};
// What a cell shows: the state's whole word (the name of its link starts with it, so a voice user
// says what they see), and a dash where the client is not engaged.
const SHOWN: Record<TGridState, string> = { ...GRID_STATE_LABEL, not_engaged: '–' };

/** ★ For one service: clients down the side, periods across, each cell a state that opens its project. */
export function ComplianceGrid({
  search,
  onChange,
}: {
  search: TReportSearch;
  onChange: (p: Partial<TReportSearch>) => void;
}) {
  const format = useFormat();
  const filters = filtersOf(search, todayIn(format.timeZone));
  const options = useQuery(trpc.reports.options.queryOptions());
  // With no service chosen, the first monthly one that makes projects (a monthly return, usually).
  const serviceId =
    search.serviceId ??
    (
      options.data?.services.find((s) => s.frequency === 'monthly' && s.hasTemplate) ??
      options.data?.services.find((s) => s.frequency === 'monthly')
    )?.id ??
    options.data?.services[0]?.id;
  const grid = useQuery({
    ...trpc.reports.complianceGrid.queryOptions({
      ...filters,
      serviceId: serviceId ?? '',
      page: search.page ?? 1,
    }),
    enabled: Boolean(serviceId),
  });
  const data = grid.data;
  return (
    <>
      <ReportFilters
        search={{ ...search, serviceId }}
        period={filters}
        onChange={onChange}
        show={['serviceId', 'groupId', 'memberId', 'clientStatus', 'tag']}
        required={['serviceId']}
      />
      {options.data && !serviceId ? (
        <p className="text-sm text-muted-fg">Add a service to see its grid.</p>
      ) : null}
      {grid.isError ? <p className="text-sm text-danger">{grid.error.message}</p> : null}
      <ul className="flex flex-wrap gap-2 text-xs" aria-label="Key">
        {GRID_STATES.map((s) => (
          <li key={s} className={`rounded px-2 py-0.5 ${CELL[s]}`}>
            {GRID_STATE_LABEL[s]}
            {data ? ` · ${format.number(data.counts[s])}` : ''}
          </li>
        ))}
        <li className="flex items-center gap-1 rounded border border-border px-2 py-0.5">
          <Hourglass aria-hidden className="size-3" /> A request waits on the client
        </li>
      </ul>
      {grid.isPending && serviceId ? (
        <Skeleton className="h-64" />
      ) : data ? (
        <>
          {/* relative: the cells' screen-reader text (absolute) stays inside the scroller, not past the page's edge */}
          {/* data-scrolls: periods run across, as many as the filter asks; the browser suite's fit check lets it scroll */}
          <div
            data-scrolls=""
            className="relative overflow-x-auto rounded-lg border border-border bg-surface"
          >
            <table className="w-full border-separate border-spacing-0.5 text-xs">
              <caption className="sr-only">{data.service.name}: each client’s state for each period</caption>
              <thead>
                <tr>
                  <th scope="col" className="sticky left-0 z-10 bg-surface p-2 text-left font-medium">
                    Client
                  </th>
                  {data.periods.map((p) => (
                    <th
                      key={p.key}
                      scope="col"
                      className="min-w-16 p-1 text-center font-medium text-muted-fg"
                    >
                      {p.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((r) => (
                  <tr key={r.clientId}>
                    <th
                      scope="row"
                      className="sticky left-0 z-10 max-w-44 truncate bg-surface p-2 text-left font-medium"
                    >
                      <Link
                        to="/clients/$id/projects"
                        params={{ id: r.clientId }}
                        className="hover:underline"
                        title={r.name}
                      >
                        {r.name}
                      </Link>
                      {r.gap ? (
                        // Text, not a second link: two links stacked in the row header would be
                        // targets closer than 24 px (WCAG 2.5.8). The gaps report has "Engage".
                        <span
                          className="block text-xs font-normal text-danger"
                          title="Must make this filing by its registrations, and is not engaged for it"
                        >
                          Gap: not engaged
                        </span>
                      ) : null}
                    </th>
                    {r.cells.map((c, i) => {
                      const label = `${GRID_STATE_LABEL[c.state]}: ${r.name}, ${data.periods[i]?.label}${c.dueDate ? `, due ${format.date(c.dueDate)}` : ''}${c.waitingOnClient ? ', waiting on the client' : ''}`;
                      return (
                        <td key={c.periodKey} className={`rounded p-0 text-center ${CELL[c.state]}`}>
                          {c.projectId ? (
                            <Link
                              to="/projects/$id"
                              params={{ id: c.projectId }}
                              aria-label={label}
                              title={label}
                              className="block px-1 py-1.5 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                            >
                              {SHOWN[c.state]}
                              {c.waitingOnClient ? (
                                <Hourglass aria-hidden className="ml-0.5 inline size-3" data-waiting="" />
                              ) : null}
                            </Link>
                          ) : (
                            <span className="block px-1 py-1.5" title={label}>
                              <span aria-hidden="true">{SHOWN[c.state]}</span>
                              <span className="sr-only">{label}</span>
                            </span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
            {data.rows.length === 0 ? (
              <p className="p-4 text-sm text-muted-fg">
                No client is engaged for {data.service.name} with these filters.
              </p>
            ) : null}
          </div>
          <Pagination
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            onPageChange={(page) => onChange({ page: page > 1 ? page : undefined })}
          />
        </>
      ) : null}
    </>
  );
}
