import { formatMinutes } from '@domain/timesheets';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Card,
  CellText,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  listQueryParams,
  PageHeader,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Hourglass } from 'lucide-react';
import { trpc } from '../../../lib/trpc';
import { RequirePermission } from '../../shell/access';
import type { TWipListRow, TWipTotals } from './use-wip';
import { WIP_LIST_SORTS } from './wip-search';

const route = getRouteApi('/_main/billing/wip/');

/** /billing/wip: what each client owes that is not on an invoice yet, the largest first. */
export function WipPage() {
  return (
    <RequirePermission permission="billing.view">
      <WipScreen />
    </RequirePermission>
  );
}

function WipScreen() {
  const url = useListUrl(route.useSearch());
  const query = listQueryParams(url.search, { sort: 'value', sorts: WIP_LIST_SORTS, direction: 'desc' });
  const list = useQuery({ ...trpc.billing.wip.list.queryOptions(query), placeholderData: keepPreviousData });
  const format = useFormat();
  const hours = (minutes: number) => `${formatMinutes(minutes)} h`;

  const columns: DataTableColumn<TWipListRow>[] = [
    {
      id: 'client',
      header: 'Client',
      sortable: true,
      primary: true,
      minWidth: 12,
      cell: (r) => (
        <>
          <CellText className="font-medium text-fg">{r.client.name}</CellText>
          <CellText className="text-xs text-muted-fg">{r.client.code}</CellText>
        </>
      ),
    },
    {
      id: 'time',
      header: 'Time',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums',
      cell: (r) =>
        r.time.minutes ? (
          <div>
            <p>{format.moneyMinor(r.time.value)}</p>
            <p className="text-xs text-muted-fg">
              {hours(r.time.minutes)}
              {r.time.unrated ? `, ${r.time.unrated} without a rate` : ''}
            </p>
          </div>
        ) : (
          <span className="text-muted-fg">-</span>
        ),
    },
    {
      id: 'fees',
      header: 'Fees due',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums',
      cell: (r) =>
        r.fees.count ? (
          <div>
            <p>{format.moneyMinor(r.fees.value)}</p>
            <p className="text-xs text-muted-fg">
              {r.fees.count} period{r.fees.count === 1 ? '' : 's'}
            </p>
          </div>
        ) : (
          <span className="text-muted-fg">-</span>
        ),
    },
    {
      id: 'disbursements',
      header: 'Disbursements',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums',
      cell: (r) =>
        r.disbursements.count ? (
          <div>
            <p>{format.moneyMinor(r.disbursements.value)}</p>
            <p className="text-xs text-muted-fg">{r.disbursements.count} unbilled</p>
          </div>
        ) : (
          <span className="text-muted-fg">-</span>
        ),
    },
    {
      id: 'covered',
      header: 'Covered by fees',
      className: 'hidden text-right tabular-nums text-muted-fg xl:table-cell',
      cell: (r) => (r.covered.minutes ? hours(r.covered.minutes) : '-'),
    },
    {
      id: 'value',
      header: 'To bill',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums font-medium',
      cell: (r) => format.moneyMinor(r.total),
    },
  ];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Work in progress"
        description="Approved billable time, fixed fees due and disbursements not on an invoice yet."
        trail={[{ label: 'Work in progress' }]}
      />
      <Totals totals={list.data?.totals} />
      <ListScreen
        label="Work in progress by client"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(r) => r.client.id}
        rowLink={(r) => ({ to: '/billing/wip/$clientId', params: { clientId: r.client.id } })}
        searchBox={{ label: 'Search clients', placeholder: 'Search clients' }}
        noMatch={{ title: 'No clients match', message: 'Try another name or code.', clear: true }}
        empty={
          <EmptyState
            icon={Hourglass}
            title="Nothing to bill"
            message="Approved billable time, fixed fees as they fall due and disbursements show here until they are invoiced."
          />
        }
      />
    </div>
  );
}

/** The firm's totals over every client listed (all pages). */
function Totals({ totals }: { totals: TWipTotals | undefined }) {
  const format = useFormat();
  const figures = [
    { label: 'To bill', value: totals?.total, sub: totals ? `${totals.clients} clients` : undefined },
    {
      label: 'Time',
      value: totals?.time.value,
      sub: totals ? `${formatMinutes(totals.time.minutes)} h` : undefined,
    },
    {
      label: 'Fees due',
      value: totals?.fees.value,
      sub: totals ? `${totals.fees.count} periods` : undefined,
    },
    {
      label: 'Disbursements',
      value: totals?.disbursements.value,
      sub: totals ? `${totals.disbursements.count} unbilled` : undefined,
    },
  ];
  return (
    <Card className="grid grid-cols-2 divide-border sm:grid-cols-4 sm:divide-x" aria-label="Firm totals">
      {figures.map((f) => (
        <div key={f.label} className="px-4 py-3">
          <p className="text-xs text-muted-fg">{f.label}</p>
          <p className="text-lg font-semibold tabular-nums">
            {f.value === undefined ? '…' : format.moneyMinor(f.value)}
          </p>
          <p className="text-xs text-muted-fg tabular-nums">{f.sub ?? '\u00a0'}</p>
        </div>
      ))}
    </Card>
  );
}
