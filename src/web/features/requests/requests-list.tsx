import { REQUEST_STATUS_LABELS } from '@domain/requests/constants';
import { REQUEST_LIST_STATUS } from '@domain/requests/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type DataTableColumn, EmptyState, ListScreen, useFormat, useListUrl } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import type { ReactNode } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { ClientPicker } from '../projects/client-picker';
import { RequestProgress, RequestStatusBadge } from './request-status-badge';
import { requestsListInput, type TRequestsSearch } from './requests-search';

export type TRequestRow = inferRouterOutputs<AppRouter>['requests']['list']['rows'][number];

function useColumns(showClient: boolean): DataTableColumn<TRequestRow>[] {
  const format = useFormat();
  const columns: (DataTableColumn<TRequestRow> | null)[] = [
    { id: 'title', header: 'Request', primary: true, truncate: true, minWidth: 12, cell: (r) => r.title },
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
    { id: 'dueDate', header: 'Due', sortable: true, cell: (r) => format.date(r.dueDate) },
    {
      id: 'progress',
      header: 'Done',
      className: 'w-40',
      cell: (r) => <RequestProgress done={r.progress.done} total={r.progress.total} />,
    },
    { id: 'status', header: 'Status', cell: (r) => <RequestStatusBadge status={r.displayStatus} /> },
    {
      id: 'createdAt',
      header: 'Created',
      sortable: true,
      sortDescFirst: true,
      cell: (r) => format.date(r.createdAt),
    },
  ];
  return columns.filter((c): c is DataTableColumn<TRequestRow> => c !== null);
}

const STATUS_OPTIONS = REQUEST_LIST_STATUS.map((s) => ({
  value: s,
  label: s === 'open' ? 'Open' : REQUEST_STATUS_LABELS[s],
}));
const OVERDUE_OPTIONS = [{ value: 'yes', label: 'Overdue only' }];

/**
 * Requests, paged, sorted and filtered on the server from the URL: the firm's (`/requests`) or one
 * client's (its Requests tab, `clientId`).
 */
export function RequestsList({
  search,
  clientId,
  empty,
}: {
  search: TRequestsSearch;
  clientId?: string;
  empty?: ReactNode;
}) {
  const url = useListUrl(search);
  const query = requestsListInput(url.search, clientId);
  const list = useQuery({ ...trpc.requests.list.queryOptions(query), placeholderData: keepPreviousData });
  const columns = useColumns(!clientId);
  return (
    <ListScreen
      label="Requests"
      url={url}
      query={query}
      list={list}
      columns={columns}
      getRowId={(r) => r.id}
      getRowLabel={(r) => `${r.title} ${r.clientName}`}
      rowLink={(r) => ({ to: '/requests/$id', params: { id: r.id } })}
      searchBox={{
        label: 'Search requests',
        placeholder: clientId ? 'Search title' : 'Search title or client',
      }}
      filters={[
        { key: 'status', label: 'Status', all: 'All statuses', options: STATUS_OPTIONS },
        { key: 'overdue', label: 'Overdue', all: 'Overdue or not', options: OVERDUE_OPTIONS },
      ]}
      tools={
        clientId ? undefined : (
          <ClientPicker
            from="requests"
            aria-label="Client"
            className="w-52"
            placeholder="All clients"
            value={url.search.clientId ?? null}
            onChange={(id) => url.setSearch({ clientId: id ?? undefined, page: undefined })}
          />
        )
      }
      toolKeys={clientId ? [] : ['clientId']}
      noMatch={{
        title: 'No requests match',
        message: 'Try another title or client, or clear the filters.',
        clear: true,
      }}
      empty={
        empty ?? (
          <EmptyState
            icon={ClipboardList}
            title="No requests yet"
            message="Ask a client for documents and answers from the client's Requests tab."
          />
        )
      }
    />
  );
}
