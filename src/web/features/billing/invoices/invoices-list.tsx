import {
  INVOICE_KIND_LABELS,
  INVOICE_STATUS_FILTER_LABELS,
  INVOICE_STATUS_FILTERS,
} from '@domain/billing/invoice-list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type DataTableColumn, DatePicker, EmptyState, ListScreen, useFormat, useListUrl } from '@web/ui';
import { ReceiptText } from 'lucide-react';
import type { ReactNode } from 'react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { BillingClientPicker } from './billing-client-picker';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { invoicesListInput, type TInvoicesSearch } from './invoices-search';

export type TInvoiceRow = inferRouterOutputs<AppRouter>['billing']['invoices']['list']['rows'][number];

const none = <span className="text-muted-fg">—</span>;

function useColumns(showClient: boolean): DataTableColumn<TInvoiceRow>[] {
  const format = useFormat();
  const money = (v: number) => <span className="tabular-nums">{format.moneyMinor(v)}</span>;
  const columns: (DataTableColumn<TInvoiceRow> | null)[] = [
    {
      id: 'number',
      header: 'Number',
      sortable: true,
      primary: true,
      cell: (r) => (
        <span className="whitespace-nowrap">
          {r.number ? (
            <span className="font-mono text-xs font-medium text-fg">{r.number}</span>
          ) : (
            <span className="text-muted-fg italic">Draft</span>
          )}
          {r.kind === 'credit_note' ? (
            <span className="ml-1.5 text-xs text-muted-fg">{INVOICE_KIND_LABELS.credit_note}</span>
          ) : null}
        </span>
      ),
    },
    showClient
      ? {
          id: 'client',
          header: 'Client',
          sortable: true,
          truncate: true,
          minWidth: 10,
          cell: (r) => r.clientName,
        }
      : null,
    {
      id: 'issueDate',
      header: 'Issued',
      sortable: true,
      sortDescFirst: true,
      cell: (r) => (r.issueDate ? format.date(r.issueDate) : none),
    },
    {
      id: 'dueDate',
      header: 'Due',
      sortable: true,
      sortDescFirst: true,
      cell: (r) => (r.dueDate && r.kind === 'invoice' ? format.date(r.dueDate) : none),
    },
    {
      id: 'total',
      header: 'Total',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
      cell: (r) => money(r.total),
    },
    {
      id: 'balance',
      header: 'Balance',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right',
      // A credit note owes nothing: what it has left is the client's credit (Payments shows it).
      cell: (r) => (r.kind === 'invoice' && r.status !== 'draft' ? money(r.balance) : none),
    },
    { id: 'status', header: 'Status', cell: (r) => <InvoiceStatusBadge status={r.displayStatus} /> },
  ];
  return columns.filter((c): c is DataTableColumn<TInvoiceRow> => c !== null);
}

const STATUS_OPTIONS = INVOICE_STATUS_FILTERS.map((s) => ({
  value: s,
  label: INVOICE_STATUS_FILTER_LABELS[s],
}));
const KIND_OPTIONS = [
  { value: 'invoice', label: 'Invoices' },
  { value: 'credit_note', label: 'Credit notes' },
];

/**
 * Invoices and credit notes, paged, sorted and filtered on the server from the URL: the firm's
 * (`/billing/invoices`) or one client's (its Billing tab, `clientId`).
 */
export function InvoicesList({
  search,
  clientId,
  empty,
}: {
  search: TInvoicesSearch;
  clientId?: string;
  empty?: ReactNode;
}) {
  const url = useListUrl(search);
  const query = invoicesListInput(url.search, clientId);
  const list = useQuery({
    ...trpc.billing.invoices.list.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const columns = useColumns(!clientId);
  const tools = (
    <>
      {clientId ? null : (
        <BillingClientPicker
          aria-label="Client"
          className="w-52"
          placeholder="All clients"
          value={url.search.clientId ?? null}
          onChange={(id) => url.setSearch({ clientId: id ?? undefined, page: undefined })}
        />
      )}
      <DatePicker
        aria-label="Issued from"
        placeholder="Issued from"
        className="w-36"
        value={url.search.from ?? null}
        max={url.search.to}
        onChange={(v) => url.setSearch({ from: v ?? undefined, page: undefined })}
      />
      <DatePicker
        aria-label="Issued to"
        placeholder="Issued to"
        className="w-36"
        value={url.search.to ?? null}
        min={url.search.from}
        onChange={(v) => url.setSearch({ to: v ?? undefined, page: undefined })}
      />
    </>
  );
  return (
    <ListScreen
      label="Invoices"
      url={url}
      query={query}
      list={list}
      columns={columns}
      getRowId={(r) => r.id}
      getRowLabel={(r) => `${r.number ?? 'Draft'} ${r.clientName}`}
      rowLink={(r) => ({ to: '/billing/invoices/$id', params: { id: r.id } })}
      searchBox={{
        label: 'Search invoices',
        placeholder: clientId ? 'Search number' : 'Search number or client',
      }}
      filters={[
        { key: 'status', label: 'Status', all: 'All statuses', options: STATUS_OPTIONS },
        {
          key: 'kind',
          label: 'Kind',
          all: 'Invoices and credit notes',
          options: KIND_OPTIONS,
          className: 'w-52',
        },
      ]}
      tools={tools}
      toolKeys={clientId ? ['from', 'to'] : ['clientId', 'from', 'to']}
      noMatch={{
        title: 'No invoices match',
        message: 'Try another number or client, or clear the filters.',
        clear: true,
      }}
      empty={
        empty ?? (
          <EmptyState icon={ReceiptText} title="No invoices yet" message="Bill a client with New invoice." />
        )
      }
    />
  );
}
