import { AGE_BANDS } from '@domain/requests/report';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type DataTableColumn, ListScreen, PageHeader, Select, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { Figure } from './client-summary-page';
import { ExportButtons } from './export-buttons';
import type { TOutstandingSearch } from './requests-outstanding-page';
import { SeriesBars } from './status-chart';

const route = getRouteApi('/_main/reports/requests/outstanding');
const PAGE_SIZE = 50;
const ALL = '__all';

const BAND_SERIES = [
  { key: 'week', label: AGE_BANDS[0].label, colour: '#16a34a' },
  { key: 'month', label: AGE_BANDS[1].label, colour: '#2563eb' },
  { key: 'twoMonths', label: AGE_BANDS[2].label, colour: '#ca8a04' },
  { key: 'older', label: AGE_BANDS[3].label, colour: '#dc2626' },
];

/** /reports/requests/outstanding: open client requests by client, age since sent and sender. */
export function RequestsOutstandingPage() {
  const reports = useCan('reports.view');
  const requests = useCan('requests.view');
  if (!reports || !requests)
    return <NoAccess message="This report needs both reports and client requests in your role." />;
  return <RequestsOutstanding />;
}

function RequestsOutstanding() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const set = (patch: Partial<TOutstandingSearch>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  const input = {
    page: search.page ?? 1,
    pageSize: PAGE_SIZE,
    sort: search.sort ?? 'open',
    direction: search.direction ?? 'desc',
    ...(search.senderId ? { senderId: search.senderId } : {}),
    ...(search.search ? { search: search.search } : {}),
  };
  const report = useQuery({
    ...trpc.reports.requestsOutstanding.queryOptions(input),
    placeholderData: keepPreviousData,
  });
  const data = report.data;
  type TRow = NonNullable<typeof data>['rows'][number];
  const n = (v: number) => format.number(v);
  const count = (key: keyof TRow & string, header: string, hidden = false): DataTableColumn<TRow> => ({
    id: key,
    header,
    cell: (r) => n(r[key] as number),
    className: hidden ? 'hidden text-right xl:table-cell' : 'text-right',
  });
  const columns: DataTableColumn<TRow>[] = [
    { id: 'name', header: 'Client', cell: (r) => r.name, sortable: true, truncate: true, primary: true },
    { ...count('open', 'Open'), sortable: true, sortDescFirst: true },
    count('waiting', 'Waiting on client'),
    { ...count('overdue', 'Overdue'), sortable: true, sortDescFirst: true },
    count('week', AGE_BANDS[0].label),
    count('month', AGE_BANDS[1].label),
    count('twoMonths', AGE_BANDS[2].label),
    count('older', AGE_BANDS[3].label),
    {
      id: 'oldest',
      header: 'Oldest',
      cell: (r) => `${n(r.oldestDays)} d`,
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
  ];
  const senderOptions = [
    { value: ALL, label: 'Anyone' },
    ...(data?.senders ?? [])
      .filter((s) => s.memberId)
      .map((s) => ({ value: s.memberId as string, label: s.name })),
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports', to: '/reports' }, { label: 'Requests outstanding' }]}
        title="Requests outstanding"
        description="Client requests sent and not yet complete: who they wait on, and for how long since they were sent"
        actions={<ExportButtons report="requests" input={input} />}
      />
      {data ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
          <Figure label="Open requests" value={n(data.totals.open)} />
          <Figure label="Waiting on clients" value={n(data.totals.waiting)} />
          <Figure label="Overdue" value={n(data.totals.overdue)} />
          <Figure label="Over 60 days" value={n(data.totals.older)} />
        </dl>
      ) : null}
      <ListScreen
        url={{ search, setSearch: set }}
        query={input}
        list={report}
        pageSizes={false}
        label="Requests outstanding by client"
        columns={columns}
        getRowId={(r) => r.id}
        rowLink={(r) => ({ to: '/clients/$id/requests', params: { id: r.id } })}
        searchBox={{ label: 'Search clients', placeholder: 'Client name' }}
        tools={
          <div className="flex items-center gap-2 text-sm">
            <span aria-hidden className="whitespace-nowrap text-muted-fg">
              Sent by
            </span>
            <Select
              aria-label="Sent by"
              options={senderOptions}
              value={search.senderId ?? ALL}
              onValueChange={(v) => set({ senderId: v === ALL ? undefined : v, page: undefined })}
            />
          </div>
        }
        toolKeys={['senderId']}
        empty={
          <p>
            No open requests. <Link to="/requests">Send one from a client</Link>.
          </p>
        }
      />
      {data?.senders.length ? (
        <section aria-labelledby="by-sender" className="flex flex-col gap-2">
          <h2 id="by-sender" className="font-semibold">
            By who sent them
          </h2>
          <SeriesBars
            rows={data.senders.map((s) => ({
              name: s.name,
              week: s.week,
              month: s.month,
              twoMonths: s.twoMonths,
              older: s.older,
            }))}
            series={BAND_SERIES}
            tableId="by-sender-table"
            label="Open requests by sender and age"
            stacked
          />
          <table id="by-sender-table" className="w-full text-sm">
            <caption className="sr-only">Open requests by sender and age since sent</caption>
            <thead className="text-left text-xs text-muted-fg">
              <tr>
                <th scope="col" className="py-1 font-normal">
                  Sent by
                </th>
                {['Open', 'Overdue', ...AGE_BANDS.map((b) => b.label), 'Oldest'].map((h) => (
                  <th key={h} scope="col" className="py-1 text-right font-normal">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.senders.map((s) => (
                <tr key={s.memberId ?? 'gone'} className="border-t border-border">
                  <th scope="row" className="py-1.5 text-left font-normal">
                    {s.name}
                  </th>
                  {[s.open, s.overdue, s.week, s.month, s.twoMonths, s.older].map((v, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of columns
                    <td key={i} className="py-1.5 text-right tabular-nums">
                      {n(v)}
                    </td>
                  ))}
                  <td className="py-1.5 text-right tabular-nums">{n(s.oldestDays)} d</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
