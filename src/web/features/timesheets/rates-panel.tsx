import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  DataTable,
  type DataTableColumn,
  EmptyState,
  SearchBox,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  useFormat,
} from '@web/ui';
import { Briefcase, BriefcaseBusiness, Search, Users } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RateDialog, type TRateTarget } from './rate-dialog';

const PAGE_SIZES = [25, 50, 100];
const BILL_HINT = 'Used when no task, service or client rate applies';

/** The firm's rates: each member's cost and billing rate, and the billing rates of clients and services. */
export function RatesPanel() {
  const [editing, setEditing] = useState<TRateTarget | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <p className="max-w-3xl text-sm text-muted-fg">
        Hourly rates. Time bills at the most specific rate set: the task's, then the service's, then the
        client's, then the member's own. Approving a week freezes the rates onto its time.
      </p>
      <Tabs defaultValue="members">
        <TabsList aria-label="Rates of">
          <TabsTrigger value="members">Members</TabsTrigger>
          <TabsTrigger value="clients">Clients</TabsTrigger>
          <TabsTrigger value="services">Services</TabsTrigger>
        </TabsList>
        <TabsContent value="members">
          <MemberRates onEdit={setEditing} />
        </TabsContent>
        <TabsContent value="clients">
          <NamedRates which="clients" onEdit={setEditing} />
        </TabsContent>
        <TabsContent value="services">
          <NamedRates which="services" onEdit={setEditing} />
        </TabsContent>
      </Tabs>
      <RateDialog target={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

function usePaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 25);
  const [search, setSearch] = useState<string | undefined>();
  return {
    input: { page, pageSize, ...(search ? { search } : {}) },
    search,
    table: {
      page,
      pageSize,
      onPageChange: setPage,
      onPageSizeChange: (size: number) => {
        setPageSize(size);
        setPage(1);
      },
      pageSizeOptions: PAGE_SIZES,
    },
    onSearch: (value: string | undefined) => {
      setSearch(value);
      setPage(1);
    },
  };
}

function RateCell({ rate }: { rate: number | null }) {
  const format = useFormat();
  return rate === null ? <span className="text-muted-fg">Not set</span> : format.moneyMinor(rate);
}

const editColumn = <T,>(label: (row: T) => string, onEdit: (row: T) => void): DataTableColumn<T> => ({
  id: 'edit',
  header: <span className="sr-only">Actions</span>,
  className: 'text-right',
  cell: (row) => (
    <Button
      size="sm"
      variant="outline"
      aria-label={`Set rates for ${label(row)}`}
      onClick={() => onEdit(row)}
    >
      Set rates
    </Button>
  ),
});

function MemberRates({ onEdit }: { onEdit: (target: TRateTarget) => void }) {
  const paging = usePaging();
  const list = useQuery({
    ...trpc.timesheets.rates.members.queryOptions(paging.input),
    placeholderData: keepPreviousData,
  });
  type TRow = NonNullable<typeof list.data>['rows'][number];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Member',
      truncate: true,
      cell: (m) => (
        <span className="flex items-center gap-2">
          <span className="font-medium">{m.name}</span>
          {m.status === 'active' ? null : (
            <Badge tone="light-grey">{m.status === 'invited' ? 'Invited' : 'Disabled'}</Badge>
          )}
        </span>
      ),
    },
    {
      id: 'cost',
      header: 'Cost rate',
      className: 'text-right tabular-nums',
      cell: (m) => <RateCell rate={m.costRate} />,
    },
    {
      id: 'bill',
      header: 'Billing rate',
      className: 'text-right tabular-nums',
      cell: (m) => <RateCell rate={m.billRate} />,
    },
    editColumn(
      (m) => m.name,
      (m) =>
        onEdit({
          refId: m.id,
          name: m.name,
          fields: [
            {
              kind: 'cost',
              label: 'Cost rate',
              hint: 'What an hour of their time costs the firm',
              rate: m.costRate,
            },
            { kind: 'member', label: 'Billing rate', hint: BILL_HINT, rate: m.billRate },
          ],
        }),
    ),
  ];
  return (
    <RateTable
      label="Members' rates"
      columns={columns}
      list={list}
      paging={paging}
      searchLabel="Search members"
      empty={<EmptyState icon={Users} title="No members" />}
    />
  );
}

function NamedRates({
  which,
  onEdit,
}: {
  which: 'clients' | 'services';
  onEdit: (target: TRateTarget) => void;
}) {
  const paging = usePaging();
  const procedure = which === 'clients' ? trpc.timesheets.rates.clients : trpc.timesheets.rates.services;
  const list = useQuery({ ...procedure.queryOptions(paging.input), placeholderData: keepPreviousData });
  type TRow = NonNullable<typeof list.data>['rows'][number];
  const noun = which === 'clients' ? 'Client' : 'Service';
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: noun,
      truncate: true,
      cell: (r) => (
        <span>
          <span className="font-medium">{r.name}</span>{' '}
          <span className="text-xs text-muted-fg">{r.code}</span>
        </span>
      ),
    },
    {
      id: 'bill',
      header: 'Billing rate',
      className: 'text-right tabular-nums',
      cell: (r) => <RateCell rate={r.billRate} />,
    },
    editColumn(
      (r) => r.name,
      (r) =>
        onEdit({
          refId: r.id,
          name: r.name,
          fields: [
            {
              kind: which === 'clients' ? 'client' : 'service',
              label: 'Billing rate',
              hint:
                which === 'clients'
                  ? "Used for this client's time when no task or service rate applies"
                  : 'Used for time on this service when the task has no rate of its own',
              rate: r.billRate,
            },
          ],
        }),
    ),
  ];
  return (
    <RateTable
      label={`${noun}s' rates`}
      columns={columns}
      list={list}
      paging={paging}
      searchLabel={`Search ${which}`}
      empty={
        <EmptyState icon={which === 'clients' ? BriefcaseBusiness : Briefcase} title={`No ${which} yet`} />
      }
    />
  );
}

function RateTable<T extends { id: string }>({
  label,
  columns,
  list,
  paging,
  searchLabel,
  empty,
}: {
  label: string;
  columns: DataTableColumn<T>[];
  list: { data?: { rows: T[]; total: number }; isPending: boolean };
  paging: ReturnType<typeof usePaging>;
  searchLabel: string;
  empty: ReactNode;
}) {
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={list.data?.rows ?? []}
      getRowId={(r) => r.id}
      total={list.data?.total ?? 0}
      loading={list.isPending}
      {...paging.table}
      toolbar={
        <SearchBox
          value={paging.search}
          onSearch={paging.onSearch}
          label={searchLabel}
          placeholder={searchLabel}
        />
      }
      empty={
        paging.search ? (
          <EmptyState icon={Search} title="Nothing matches" message="Try another name." />
        ) : (
          empty
        )
      }
    />
  );
}
