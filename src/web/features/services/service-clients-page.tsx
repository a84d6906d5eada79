import { dueDateRulePreview, FREQUENCY_LABELS } from '@domain/services';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Badge,
  CellText,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  listPageParams,
  PageHeader,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Users } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { NoAccess, RequirePermission, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import type { TServiceClientRow } from './use-services';

const route = getRouteApi('/_main/admin/services/$id/clients');

/** /admin/services/{id}/clients: which clients take a service, from when, for what fee, with whom. */
export function ServiceClientsPage() {
  return (
    <RequirePermission permission="services.view">
      <ServiceClientsScreen />
    </RequirePermission>
  );
}

function ServiceClientsScreen() {
  const { id } = route.useParams();
  const canSeeClients = useCan('clients.view');
  const format = useFormat();
  const url = useListUrl(route.useSearch());
  const service = useQuery({ ...trpc.services.get.queryOptions({ serviceId: id }), retry: false });
  const query = { serviceId: id, ...listPageParams(url.search) };
  const list = useQuery({
    ...trpc.services.clients.queryOptions(query),
    placeholderData: keepPreviousData,
    enabled: canSeeClients && service.isSuccess,
    retry: false,
  });
  if (service.error?.data?.code === 'NOT_FOUND') {
    return <RecordNotFound thing="service" back={{ to: '/admin/services', label: 'Back to services' }} />;
  }
  if (!canSeeClients)
    return <NoAccess message="Seeing a service's clients needs the right to view clients." />;
  const s = service.data;

  const columns: DataTableColumn<TServiceClientRow>[] = [
    {
      id: 'client',
      header: 'Client',
      minWidth: 12,
      cell: (r) => (
        <>
          <CellText className="font-medium text-fg">{r.client.name}</CellText>
          <span className="block font-mono text-xs text-muted-fg">{r.client.code}</span>
        </>
      ),
    },
    { id: 'start', header: 'Start', cell: (r) => format.date(r.startDate) },
    {
      id: 'end',
      header: 'End',
      cell: (r) => (r.endDate ? format.date(r.endDate) : null) ?? <Badge tone="green">Ongoing</Badge>,
    },
    { id: 'fee', header: 'Fee', className: 'text-right tabular-nums', cell: (r) => format.money(r.fee) },
    {
      id: 'assignees',
      header: 'Assignees',
      className: 'hidden md:table-cell',
      truncate: true,
      cell: (r) => (r.assignees.length ? r.assignees.map((a) => a.name).join(', ') : '-'),
    },
  ];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={s ? `${s.name} — clients` : 'Clients'}
        description={
          s
            ? `${s.code} · ${FREQUENCY_LABELS[s.frequency]} · due ${dueDateRulePreview(s.dueDateRule).toLowerCase()} · default fee ${format.money(s.defaultFee)}`
            : undefined
        }
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Services', to: '/admin/services' },
          { label: s?.name ?? '…' },
        ]}
      />
      <nav aria-label="Service" className="flex gap-1 border-b border-border">
        <Link
          to="/admin/services/$id/clients"
          params={{ id }}
          className="border-b-2 border-primary px-3 py-2 text-sm font-medium text-fg"
          aria-current="page"
        >
          Clients
        </Link>
        <Link
          to="/admin/services/$id/projects"
          params={{ id }}
          className="border-b-2 border-transparent px-3 py-2 text-sm font-medium text-muted-fg hover:text-fg"
        >
          Projects
        </Link>
      </nav>
      <ListScreen
        label="Clients of the service"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(r) => r.id}
        rowLink={(r) => ({ to: '/clients/$id', params: { id: r.client.id } })}
        empty={
          <EmptyState
            icon={Users}
            title="No client takes this service yet"
            message="Add it to a client from the client's Services tab."
          />
        }
      />
    </div>
  );
}
