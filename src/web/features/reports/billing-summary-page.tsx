import { todayIn } from '@domain/days';
import type { TFormatter } from '@domain/format';
import {
  BILLING_REPORT_DIMENSION_LABELS,
  BILLING_REPORT_DIMENSIONS,
  BILLING_SUMMARY_SORTS,
  type TBillingFigure,
  type TBillingReportDimension,
} from '@domain/reports';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  type DataTableColumn,
  ListScreen,
  PageHeader,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  useFormat,
} from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { BillingMonthsChart } from './billing-chart';
import { Figure } from './client-summary-page';
import { ExportButtons } from './export-buttons';
import { pct, ReportFilters } from './report-filters';
import { filtersOf, reportPaging, type TReportSearch } from './report-search';
import { SavedViews } from './saved-views';

const route = getRouteApi('/_main/reports/billing/summary');

/** /reports/billing/summary: billed, collected, owed, unbilled and realised, by month, client, service, partner, member or project. */
export function BillingSummaryPage() {
  const reports = useCan('reports.view');
  const billing = useCan('billing.view');
  if (!reports) return <NoAccess message="Your role does not include reports." />;
  if (!billing) return <NoAccess message="Your role does not include billing." />;
  return <BillingSummary />;
}

const NONE: Partial<Record<TBillingReportDimension, string>> = {
  service: 'No service',
  partner: 'No partner',
  project: 'No project',
};

function BillingSummary() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const today = todayIn(format.timeZone);
  const filters = filtersOf(search, today);
  const by = search.by ?? 'client';
  const asked = reportPaging(search);
  // A sort of another report's (a saved link) reads as by name.
  const sort = (BILLING_SUMMARY_SORTS as readonly string[]).includes(asked.sort) ? asked.sort : 'name';
  const paging = { ...asked, sort: sort as (typeof BILLING_SUMMARY_SORTS)[number] };
  const report = useQuery(trpc.reports.billingSummary.queryOptions({ ...filters, ...paging, by }));
  const data = report.data;
  type TRow = NonNullable<typeof data>['rows'][number];
  const set = (patch: Partial<TReportSearch>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  const figures = new Set<TBillingFigure>(data?.figures ?? []);
  const money = (id: TBillingFigure, header: string, value: (r: TRow) => number) =>
    figures.has(id)
      ? [
          {
            id,
            header,
            cell: (r: TRow) => format.moneyMinor(value(r)),
            sortable: true,
            sortDescFirst: true,
            className: 'text-right',
          },
        ]
      : [];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: BILLING_REPORT_DIMENSION_LABELS[by],
      cell: (r) => rowName(by, r, format),
      sortable: true,
      truncate: true,
      minWidth: 8,
      primary: true,
    },
    ...money('billed', 'Billed', (r) => r.billed),
    ...money('collected', 'Collected', (r) => r.collected),
    ...money('outstanding', 'Outstanding', (r) => r.outstanding),
    ...money('overdue', 'Overdue', (r) => r.overdue),
    ...money('wip', 'WIP', (r) => r.wip),
    ...money('standard', 'Standard', (r) => r.standard),
    {
      id: 'realization',
      header: 'Realization',
      cell: (r) => pct(r.realization),
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
    },
  ];
  const totals = data?.totals;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports', to: '/reports' }, { label: 'Billing summary' }]}
        title="Billing summary"
        description={`Billed and collected ${format.dateRange(filters.from, filters.to)}; owed and unbilled today`}
        actions={
          <>
            <SavedViews report="billing" search={search} onApply={(s) => navigate({ search: s })} />
            <ExportButtons
              report="billing"
              input={{ ...filters, by, sort: search.sort, direction: search.direction }}
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
      {totals ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Totals">
          <Figure label="Billed" value={format.moneyMinor(totals.billed)} />
          <Figure label="Collected" value={format.moneyMinor(totals.collected)} />
          <Figure label="Outstanding today" value={format.moneyMinor(totals.outstanding)} />
          <Figure label="Overdue today" value={format.moneyMinor(totals.overdue)} />
          <Figure label="Unbilled (WIP)" value={format.moneyMinor(totals.wip)} />
          <Figure label="Realization" value={pct(totals.realization)} />
        </dl>
      ) : null}
      {totals && totals.wip > 0 ? (
        <p className="text-sm text-muted-fg">
          Work in progress: {format.moneyMinor(totals.wipTime)} of time, {format.moneyMinor(totals.wipFees)}{' '}
          of fixed fees due and {format.moneyMinor(totals.wipDisbursements)} of disbursements.
        </p>
      ) : null}
      {data ? <BillingMonthsChart months={data.months} /> : null}
      <Tabs
        value={by}
        onValueChange={(v) =>
          set({
            by: v === 'client' ? undefined : (v as TBillingReportDimension),
            page: undefined,
            sort: undefined,
          })
        }
      >
        <TabsList aria-label="Rows by">
          {BILLING_REPORT_DIMENSIONS.map((d) => (
            <TabsTrigger key={d} value={d}>
              By {BILLING_REPORT_DIMENSION_LABELS[d].toLowerCase()}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value={by}>
          <ListScreen
            url={{ search, setSearch: set }}
            query={{ ...paging, pageSize: data?.pageSize ?? 50 }}
            list={report}
            pageSizes={false}
            label={`Billing by ${BILLING_REPORT_DIMENSION_LABELS[by].toLowerCase()}`}
            columns={columns}
            getRowId={(r) => r.id ?? 'none'}
            empty="Nothing billed, owed or unbilled for these filters."
          />
        </TabsContent>
      </Tabs>
      <div className="flex flex-col gap-1 text-xs text-muted-fg">
        <p>
          Billed: issued invoices (tax included) less credit notes, by issue date; by service or project,
          their lines. Collected: what payments settled of invoices, by payment date, TDS included.
          Outstanding and overdue: open invoices' balances today.
        </p>
        <p>
          WIP, today: approved billable time not on an invoice at its rate, fixed fees of periods begun and
          not billed, and disbursements not billed. Realization: what lines with a standard value (time, fees,
          disbursements) were billed at, against that value; by member, their time's share. Drafts count in
          neither.
        </p>
      </div>
    </div>
  );
}

function rowName(
  by: TBillingReportDimension,
  r: { id: string | null; name: string; detail: string | null },
  format: TFormatter,
): string {
  if (by === 'month' && r.id) return format.date(`${r.id}-01`, 'month');
  if (r.id === null) return NONE[by] ?? '—';
  if (!r.name) return 'Removed';
  if (by === 'client' && r.detail) return `${r.name} (${r.detail})`;
  if (by === 'project' && r.detail) return `${r.name} · ${r.detail}`;
  return r.name;
}
