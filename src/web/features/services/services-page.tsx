import { dueDateRulePreview, FREQUENCY_LABELS, SERVICE_SORTS } from '@domain/services';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  CellText,
  type DataTableColumn,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  EmptyState,
  IconButton,
  ListScreen,
  listQueryParams,
  PageHeader,
  Select,
  toast,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Archive, ArchiveRestore, Briefcase, Ellipsis, Pencil, Plus, Users } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { ServiceDrawer } from './service-drawer';
import type { TServiceRow } from './use-services';

const route = getRouteApi('/_main/admin/services/');

/** /admin/services: the firm's service catalogue. */
export function ServicesPage() {
  return (
    <RequirePermission permission="services.view">
      <ServicesScreen />
    </RequirePermission>
  );
}

function ServicesScreen() {
  const canCreate = useCan('services.create');
  const canEdit = useCan('services.edit');
  const canArchive = useCan('services.delete');
  const queryClient = useQueryClient();
  const format = useFormat();
  const url = useListUrl(route.useSearch());
  const { search, setSearch } = url;
  const query = {
    ...listQueryParams(search, { sort: 'name', sorts: SERVICE_SORTS }),
    archived: search.archived ?? false,
  };
  const list = useQuery({ ...trpc.services.list.queryOptions(query), placeholderData: keepPreviousData });
  // Filing names by the firm's version of the catalogue (the drawer's list reads the same query).
  const catalogue = useQuery(trpc.statutory.catalogue.queryOptions());
  const filingName = (code: string) => catalogue.data?.filings.find((f) => f.code === code)?.name ?? code;
  const [editing, setEditing] = useState<TServiceRow | null>(null);
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.services.pathKey() });
  const archive = useMutation(
    trpc.services.archive.mutationOptions({
      onSuccess: async () => {
        toast.success('Service archived');
        await refresh();
      },
    }),
  );
  const restore = useMutation(
    trpc.services.restore.mutationOptions({
      onSuccess: async () => {
        toast.success('Service restored');
        await refresh();
      },
    }),
  );
  const edit = (s: TServiceRow | null) => {
    setEditing(s);
    setOpen(true);
  };

  const columns: DataTableColumn<TServiceRow>[] = [
    {
      id: 'name',
      header: 'Service',
      sortable: true,
      minWidth: 12,
      cell: (s) => (
        <>
          <CellText className="font-medium text-fg">{s.name}</CellText>
          {s.description ? <CellText className="text-xs text-muted-fg">{s.description}</CellText> : null}
        </>
      ),
    },
    { id: 'code', header: 'Code', sortable: true, cell: (s) => <Badge tone="grey">{s.code}</Badge> },
    {
      id: 'category',
      header: 'Category',
      sortable: true,
      className: 'hidden md:table-cell',
      cell: (s) => s.category ?? '-',
    },
    { id: 'frequency', header: 'Frequency', cell: (s) => FREQUENCY_LABELS[s.frequency] },
    {
      id: 'due',
      header: 'Due',
      className: 'hidden lg:table-cell',
      truncate: true,
      cell: (s) => (
        <span className="text-muted-fg">
          {s.statutoryFilingCode
            ? `${filingName(s.statutoryFilingCode)} (statutory)`
            : dueDateRulePreview(s.dueDateRule)}
        </span>
      ),
    },
    {
      id: 'fee',
      header: 'Default fee',
      className: 'hidden md:table-cell text-right tabular-nums',
      cell: (s) => format.money(s.defaultFee),
    },
    {
      id: 'clients',
      header: 'Clients',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums',
      cell: (s) => (
        <Link
          to="/admin/services/$id/clients"
          params={{ id: s.id }}
          className="text-primary underline-offset-2 hover:underline"
        >
          {format.number(s.clientCount)}
        </Link>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'relative w-12 text-right',
      cell: (s) =>
        canEdit || canArchive ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <IconButton aria-label={`Actions for ${s.name}`} size="sm">
                <Ellipsis />
              </IconButton>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem asChild>
                <Link to="/admin/services/$id/clients" params={{ id: s.id }}>
                  <Users aria-hidden /> Clients
                </Link>
              </DropdownMenuItem>
              {canEdit ? (
                <DropdownMenuItem onSelect={() => edit(s)}>
                  <Pencil aria-hidden /> Edit
                </DropdownMenuItem>
              ) : null}
              {canArchive && !s.archivedAt ? (
                <DropdownMenuItem onSelect={() => archive.mutate({ serviceId: s.id })}>
                  <Archive aria-hidden /> Archive
                </DropdownMenuItem>
              ) : null}
              {canArchive && s.archivedAt ? (
                <DropdownMenuItem onSelect={() => restore.mutate({ serviceId: s.id })}>
                  <ArchiveRestore aria-hidden /> Restore
                </DropdownMenuItem>
              ) : null}
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null,
    },
  ];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Services"
        description="The firm's catalogue: what you do for clients, how often and when it falls due."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Services' }]}
        actions={
          canCreate ? (
            <Button onClick={() => edit(null)}>
              <Plus aria-hidden />
              New service
            </Button>
          ) : null
        }
      />
      <ServiceDrawer open={open} onOpenChange={setOpen} service={editing} />
      <ListScreen
        label="Services"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(s) => s.id}
        onRowClick={canEdit ? (s) => edit(s) : undefined}
        searchBox={{ label: 'Search services', placeholder: 'Search services' }}
        tools={
          <Select
            aria-label="Show"
            className="w-40"
            value={search.archived ? 'archived' : 'active'}
            onValueChange={(v) =>
              setSearch({ archived: v === 'archived' ? true : undefined, page: undefined })
            }
            options={[
              { value: 'active', label: 'Active' },
              { value: 'archived', label: 'Archived' },
            ]}
          />
        }
        noMatch={{ title: 'No services match', message: 'Try another name, code or category.' }}
        empty={
          search.archived ? (
            <EmptyState icon={Archive} title="No archived services" message="Archived services show here." />
          ) : (
            <EmptyState
              icon={Briefcase}
              title="No services yet"
              message="Add what the firm does: GST returns, audits, bookkeeping…"
              action={canCreate ? <Button onClick={() => edit(null)}>New service</Button> : undefined}
            />
          )
        }
      />
    </div>
  );
}
