import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '@domain/billing/constants';
import { AGING_DIMENSION_LABELS, AGING_DIMENSIONS, type TAgingDimension } from '@domain/billing/payment-list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import {
  CellText,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  listQueryParams,
  PageHeader,
  Select,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Scale } from 'lucide-react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { RequirePermission } from '../../shell/access';

const route = getRouteApi('/_main/billing/receivables/');

type TAging = inferRouterOutputs<AppRouter>['billing']['receivables']['aging'];
type TAgingRow = TAging['rows'][number];

const HEADERS: Record<TAgingDimension, string> = {
  client: 'Client',
  group: 'Client group',
  partner: 'Partner',
};
const NO_GROUP: Record<TAgingDimension, string> = { client: '', group: 'No group', partner: 'No partner' };

/** /billing/receivables: what clients owe, by days past due, with their credit beside it. */
export function ReceivablesPage() {
  return (
    <RequirePermission permission="billing.view">
      <ReceivablesScreen />
    </RequirePermission>
  );
}

function ReceivablesScreen() {
  const url = useListUrl(route.useSearch());
  const by: TAgingDimension = url.search.dimension ?? 'client';
  const query = {
    ...listQueryParams(url.search, { sort: 'outstanding', direction: 'desc', pageSize: 50 }),
    by,
  };
  const aging = useQuery({
    ...trpc.billing.receivables.aging.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const format = useFormat();
  const totals = aging.data?.totals;
  const money = (v: number) => (v ? format.moneyMinor(v) : <span className="text-muted-fg">—</span>);
  const amount = (
    id: keyof Omit<TAgingRow, 'id' | 'name' | 'code' | 'clients'>,
    header: string,
  ): DataTableColumn<TAgingRow> => ({
    id,
    header,
    sortable: true,
    sortDescFirst: true,
    className: `text-right tabular-nums${id === 'outstanding' ? ' font-medium' : ''}`,
    cell: (r) => money(r[id]),
  });
  const columns: DataTableColumn<TAgingRow>[] = [
    {
      id: 'name',
      header: HEADERS[by],
      sortable: true,
      primary: true,
      minWidth: 12,
      cell: (r) => (
        <>
          <CellText className="font-medium text-fg">{r.name ?? NO_GROUP[by]}</CellText>
          <CellText className="text-xs text-muted-fg">
            {by === 'client' ? r.code : `${format.number(r.clients)} client${r.clients === 1 ? '' : 's'}`}
          </CellText>
        </>
      ),
    },
    ...AGING_BUCKETS.map((b) => amount(b, AGING_BUCKET_LABELS[b])),
    amount('outstanding', 'Outstanding'),
    amount('credit', 'Credit'),
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Billing' }, { label: 'Receivables' }]}
        title="Receivables"
        description={`What clients owe, by days past due as of ${format.date(aging.data?.today ?? null)}, and the credit they hold.`}
      />
      <ListScreen
        label="Receivables"
        url={url}
        query={query}
        list={aging}
        columns={columns}
        getRowId={(r) => r.id ?? 'none'}
        rowLink={(r) =>
          by === 'client' && r.id ? { to: '/clients/$id/billing', params: { id: r.id } } : null
        }
        searchBox={{
          label: 'Search receivables',
          placeholder: by === 'client' ? 'Search client name or code' : 'Search name',
        }}
        tools={
          <Select
            aria-label="Group by"
            className="w-44"
            value={by}
            onValueChange={(v) =>
              url.setSearch({
                dimension: v === 'client' ? undefined : (v as 'group' | 'partner'),
                page: undefined,
              })
            }
            options={AGING_DIMENSIONS.map((d) => ({ value: d, label: AGING_DIMENSION_LABELS[d] }))}
          />
        }
        pageSizes={[50, 100, 200]}
        footer={(column) => {
          if (!totals) return null;
          if (column.id === 'name')
            return `Total · ${format.number(totals.clients)} client${totals.clients === 1 ? '' : 's'}`;
          const key = column.id as keyof typeof totals;
          return key in totals ? format.moneyMinor(totals[key]) : null;
        }}
        noMatch={{ title: 'Nothing matches', message: 'Try another name, or clear the search.', clear: true }}
        empty={
          <EmptyState icon={Scale} title="Nothing owed" message="No client owes the firm or holds credit." />
        }
      />
    </div>
  );
}
