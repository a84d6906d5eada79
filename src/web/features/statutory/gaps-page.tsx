import { todayIn } from '@domain/days';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Button, type DataTableColumn, ListScreen, PageHeader, toast, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import type { TGapsSearch } from './gaps-search';

const route = getRouteApi('/_main/reports/statutory/gaps');
const PAGE_SIZE = 50;

/** /reports/statutory/gaps: clients who must make a filing (by their registrations) and are not engaged for it. */
export function GapsPage() {
  const reports = useCan('reports.view');
  const clients = useCan('clients.view');
  if (!reports || !clients)
    return <NoAccess message="This report needs both reports and clients in your role." />;
  return <Gaps />;
}

const rowId = (r: { clientId: string; filing: { code: string } }) => `${r.clientId}|${r.filing.code}`;

function Gaps() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const set = (patch: Partial<TGapsSearch>) =>
    navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  const canEngage = useCan('clients.edit');
  const input = {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? PAGE_SIZE,
    ...(search.filingCode ? { filingCode: search.filingCode } : {}),
  };
  const gaps = useQuery({ ...trpc.statutory.gaps.queryOptions(input), placeholderData: keepPreviousData });
  // The filter offers the filings of the firm's version of the catalogue.
  const catalogue = useQuery(trpc.statutory.catalogue.queryOptions());
  type TRow = NonNullable<typeof gaps.data>['rows'][number];
  const queryClient = useQueryClient();
  const engage = useMutation(trpc.statutory.engage.mutationOptions());
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'client',
      header: 'Client',
      cell: (r) => `${r.clientName} (${r.clientCode})`,
      truncate: true,
      primary: true,
    },
    { id: 'filing', header: 'Must file', cell: (r) => r.filing.name },
    {
      id: 'authority',
      header: 'Authority',
      cell: (r) => r.filing.authority,
      className: 'hidden lg:table-cell',
    },
    {
      id: 'service',
      header: 'Engage with',
      cell: (r) =>
        r.service ? r.service.name : <span className="text-muted-fg">No service linked to this filing</span>,
    },
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Reports', to: '/reports' }, { label: 'Statutory gaps' }]}
        title="Statutory gaps"
        description="Clients whose registrations say they must make a filing, with no engagement for it"
      />
      <ListScreen
        url={{ search, setSearch: set }}
        query={input}
        list={gaps}
        label="Statutory gaps"
        columns={columns}
        getRowId={rowId}
        getRowLabel={(r) => `${r.clientName}: ${r.filing.name}`}
        rowLink={(r) => ({ to: '/clients/$id', params: { id: r.clientId } })}
        filters={[
          {
            key: 'filingCode',
            label: 'Filing',
            all: 'All filings',
            className: 'w-64',
            options: (catalogue.data?.filings ?? []).map((f) => ({ value: f.code, label: f.name })),
          },
        ]}
        bulkActions={
          canEngage
            ? (ids, clear) => (
                <Button
                  size="sm"
                  loading={engage.isPending}
                  onClick={async () => {
                    const items = ids.map((id) => {
                      const [clientId = '', filingCode = ''] = id.split('|');
                      return { clientId, filingCode };
                    });
                    const result = await engage.mutateAsync({ items, startDate: todayIn(format.timeZone) });
                    toast.success(
                      `${format.number(result.created)} engagements added${result.skipped ? `, ${format.number(result.skipped)} already engaged` : ''}`,
                    );
                    clear();
                    await queryClient.invalidateQueries({ queryKey: trpc.statutory.pathKey() });
                  }}
                >
                  Engage for these
                </Button>
              )
            : undefined
        }
        empty={
          <p>
            No gaps: every client with registrations is engaged for what it must file. Record registrations on
            a client’s profile, and link services to filings in{' '}
            <Link to="/admin/statutory">the statutory calendar</Link>.
          </p>
        }
      />
    </div>
  );
}
