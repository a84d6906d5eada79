import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, DataTable, EmptyState, urlPagingProps } from '@web/ui';
import { Building2, Search } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { ClientsBulkActions } from './clients-bulk-actions';
import { clientColumns } from './clients-columns';
import { clientsListInput, type TClientsSearch } from './clients-search';
import { ClientsToolbar } from './clients-toolbar';
import { useColumnChoice } from './use-column-choice';

const route = getRouteApi('/_main/clients/');

/** The firm's clients: one page of the search, sortable, selectable for the bulk actions. */
export function ClientsTable({ onCreate }: { onCreate?: () => void }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const canEdit = useCan('clients.edit');
  const input = clientsListInput(search);
  const list = useQuery({ ...trpc.clients.list.queryOptions(input), placeholderData: keepPreviousData });
  const options = useQuery(trpc.clients.options.queryOptions());
  const { visible, toggle } = useColumnChoice();
  const [selected, setSelected] = useState<string[]>([]);
  const setSearch = (next: Partial<TClientsSearch>) =>
    navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });

  const columns = clientColumns(visible);

  const filtered = Boolean(
    search.search || search.type || search.groupId || search.status || search.archived,
  );
  return (
    <DataTable
      label="Clients"
      columns={columns}
      rows={list.data?.rows ?? []}
      getRowId={(c) => c.id}
      getRowLabel={(c) => c.name}
      total={list.data?.total ?? 0}
      {...urlPagingProps(input, setSearch)}
      loading={list.isPending}
      rowLink={(c) => ({ to: '/clients/$id', params: { id: c.id } })}
      {...(canEdit
        ? {
            selectedIds: selected,
            onSelectionChange: setSelected,
            bulkActions: (ids: string[]) => <ClientsBulkActions ids={ids} onDone={() => setSelected([])} />,
          }
        : {})}
      toolbar={
        <ClientsToolbar
          search={search}
          setSearch={setSearch}
          groups={options.data?.groups ?? []}
          visible={visible}
          toggle={toggle}
        />
      }
      empty={
        filtered ? (
          <EmptyState
            icon={Search}
            title="No clients match"
            message="Try another name or code, or clear the filters."
            action={
              <Button
                variant="outline"
                onClick={() => {
                  setSearch({
                    search: undefined,
                    type: undefined,
                    groupId: undefined,
                    status: undefined,
                    archived: undefined,
                    page: undefined,
                  });
                }}
              >
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={Building2}
            title="No clients yet"
            message="Add the people and businesses the firm works for."
            action={onCreate ? <Button onClick={onCreate}>New client</Button> : undefined}
          />
        )
      }
    />
  );
}
