import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@domain/billing/constants';
import { TDS_FILTER_LABELS, TDS_FILTERS } from '@domain/billing/payment-list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type DataTableColumn, DatePicker, EmptyState, ListScreen, useFormat, useListUrl } from '@web/ui';
import { Banknote } from 'lucide-react';
import type { ReactNode } from 'react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { BillingClientPicker } from '../invoices/billing-client-picker';
import { PaymentStateBadges, TdsText } from './payment-badges';
import { paymentsListInput, type TPaymentsSearch } from './payments-search';

export type TPaymentRow = inferRouterOutputs<AppRouter>['billing']['payments']['list']['rows'][number];

const none = <span className="text-muted-fg">—</span>;

function useColumns(showClient: boolean): DataTableColumn<TPaymentRow>[] {
  const format = useFormat();
  const money = (v: number) => <span className="tabular-nums">{format.moneyMinor(v)}</span>;
  const columns: (DataTableColumn<TPaymentRow> | null)[] = [
    {
      id: 'receivedOn',
      header: 'Date',
      sortable: true,
      sortDescFirst: true,
      cell: (r) => format.date(r.receivedOn),
    },
    showClient
      ? {
          id: 'client',
          header: 'Client',
          sortable: true,
          primary: true,
          truncate: true,
          minWidth: 10,
          cell: (r) => r.client.name,
        }
      : null,
    { id: 'method', header: 'Method', cell: (r) => PAYMENT_METHOD_LABELS[r.method] },
    {
      id: 'reference',
      header: 'Reference',
      truncate: true,
      minWidth: 6,
      cell: (r) => r.reference || none,
    },
    {
      id: 'amount',
      header: 'Amount',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
      cell: (r) =>
        r.kind === 'refund' ? (
          <span className="tabular-nums">−{format.moneyMinor(r.amount)}</span>
        ) : (
          money(r.amount)
        ),
    },
    {
      id: 'tds',
      header: 'TDS',
      className: 'text-right',
      cell: (r) => (r.tdsAmount > 0 ? <TdsText payment={r} /> : none),
    },
    {
      id: 'unallocated',
      header: 'Credit',
      className: 'text-right',
      cell: (r) => (r.unallocated > 0 ? money(r.unallocated) : none),
    },
    { id: 'state', header: 'Status', cell: (r) => <PaymentStateBadges payment={r} /> },
  ];
  return columns.filter((c): c is DataTableColumn<TPaymentRow> => c !== null);
}

const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }));
const KIND_OPTIONS = [
  { value: 'receipt', label: 'Receipts' },
  { value: 'refund', label: 'Refunds' },
];
const TDS_OPTIONS = TDS_FILTERS.map((t) => ({ value: t, label: TDS_FILTER_LABELS[t] }));
const REVERSED_OPTIONS = [
  { value: 'no', label: 'Not reversed' },
  { value: 'yes', label: 'Reversed' },
];

/**
 * Payments and refunds, paged, sorted and filtered on the server from the URL: the firm's
 * (`/billing/payments`) or one client's (its Billing tab, `clientId`).
 */
export function PaymentsList({
  search,
  clientId,
  empty,
}: {
  search: TPaymentsSearch;
  clientId?: string;
  empty?: ReactNode;
}) {
  const url = useListUrl(search);
  const query = paymentsListInput(url.search, clientId);
  const list = useQuery({
    ...trpc.billing.payments.list.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const columns = useColumns(!clientId);
  const tools = (
    <>
      {clientId ? null : (
        <BillingClientPicker
          from="payments"
          aria-label="Client"
          className="w-52"
          placeholder="All clients"
          value={url.search.clientId ?? null}
          onChange={(id) => url.setSearch({ clientId: id ?? undefined, page: undefined })}
        />
      )}
      <DatePicker
        aria-label="Received from"
        placeholder="Received from"
        className="w-40"
        value={url.search.from ?? null}
        max={url.search.to}
        onChange={(v) => url.setSearch({ from: v ?? undefined, page: undefined })}
      />
      <DatePicker
        aria-label="Received to"
        placeholder="Received to"
        className="w-40"
        value={url.search.to ?? null}
        min={url.search.from}
        onChange={(v) => url.setSearch({ to: v ?? undefined, page: undefined })}
      />
    </>
  );
  return (
    <ListScreen
      label="Payments"
      url={url}
      query={query}
      list={list}
      columns={columns}
      getRowId={(r) => r.id}
      rowLink={(r) => ({ to: '/billing/payments/$id', params: { id: r.id } })}
      searchBox={{
        label: 'Search payments',
        placeholder: clientId ? 'Search reference' : 'Search reference or client',
      }}
      filters={[
        { key: 'method', label: 'Method', all: 'All methods', options: METHOD_OPTIONS, className: 'w-36' },
        { key: 'kind', label: 'Kind', all: 'All kinds', options: KIND_OPTIONS, className: 'w-32' },
        { key: 'tds', label: 'TDS', all: 'TDS or not', options: TDS_OPTIONS, className: 'w-60' },
        {
          key: 'reversed',
          label: 'Reversed',
          all: 'Reversed or not',
          options: REVERSED_OPTIONS,
          className: 'w-40',
        },
      ]}
      tools={tools}
      toolKeys={clientId ? ['from', 'to'] : ['clientId', 'from', 'to']}
      noMatch={{
        title: 'No payments match',
        message: 'Try another reference or client, or clear the filters.',
        clear: true,
      }}
      empty={
        empty ?? (
          <EmptyState icon={Banknote} title="No payments yet" message="Record one with Record payment." />
        )
      }
    />
  );
}
