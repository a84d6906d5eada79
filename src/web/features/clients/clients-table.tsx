import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, EmptyState, ListScreen, useListUrl } from '@web/ui';
import { Building2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { BulkSendRequest } from '../requests/flow/bulk-send-request';
import { useCan } from '../shell/access';
import { ClientsBulkActions } from './clients-bulk-actions';
import { clientColumns } from './clients-columns';
import { clientsListInput } from './clients-search';
import { ColumnChooser, clientFilters } from './clients-toolbar';
import { useColumnChoice } from './use-column-choice';

const route = getRouteApi('/_main/clients/');

/** The firm's clients: one page of the search, sortable, selectable for the bulk actions. */
export function ClientsTable({ onCreate }: { onCreate?: () => void }) {
  const url = useListUrl(route.useSearch());
  const canEdit = useCan('clients.edit');
  const canSend = useCan('requests.manage');
  const query = clientsListInput(url.search);
  const list = useQuery({ ...trpc.clients.list.queryOptions(query), placeholderData: keepPreviousData });
  const options = useQuery(trpc.clients.options.queryOptions());
  const { visible, toggle } = useColumnChoice();
  return (
    <ListScreen
      label="Clients"
      url={url}
      query={query}
      list={list}
      columns={clientColumns(visible)}
      getRowId={(c) => c.id}
      getRowLabel={(c) => c.name}
      rowLink={(c) => ({ to: '/clients/$id', params: { id: c.id } })}
      bulkActions={
        canEdit || canSend
          ? (ids, clear) => (
              <>
                {canEdit ? <ClientsBulkActions ids={ids} onDone={clear} /> : null}
                <BulkSendRequest ids={ids} onDone={clear} />
              </>
            )
          : undefined
      }
      searchBox={{ label: 'Search clients', placeholder: 'Search name, code, email, PAN…' }}
      filters={clientFilters(options.data?.groups ?? [])}
      tools={<ColumnChooser visible={visible} toggle={toggle} />}
      noMatch={{
        title: 'No clients match',
        message: 'Try another name or code, or clear the filters.',
        clear: true,
      }}
      empty={
        <EmptyState
          icon={Building2}
          title="No clients yet"
          message="Add the people and businesses the firm works for."
          action={onCreate ? <Button onClick={onCreate}>New client</Button> : undefined}
        />
      }
    />
  );
}
