import { CLIENT_TYPE_LABELS, CLIENT_TYPES, type TClientBulk } from '@domain/clients';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import {
  Badge,
  Button,
  DataTable,
  type DataTableColumn,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  EmptyState,
  Field,
  Input,
  PageHeader,
  SearchBox,
  Select,
  toast,
  urlPagingProps,
} from '@web/ui';
import { Building2, ChevronDown, Columns3, FileUp, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { ClientFormDrawer } from './client-form';
import { clientsListInput, type TClientsSearch } from './clients-search';
import { ClientsExportMenu } from './export-button';
import { ClientImportDialog } from './import-dialog';
import { type TClientRow, useClientsRefresh } from './use-clients';

const route = getRouteApi('/_main/clients/');

const COLUMNS_KEY = 'practice.clients.columns';
const OPTIONAL_COLUMNS = [
  { id: 'type', label: 'Type' },
  { id: 'group', label: 'Group' },
  { id: 'email', label: 'Email' },
  { id: 'phone', label: 'Phone' },
  { id: 'city', label: 'City' },
  { id: 'tags', label: 'Tags' },
  { id: 'status', label: 'Status' },
  { id: 'createdAt', label: 'Added' },
] as const;
type TOptionalColumn = (typeof OPTIONAL_COLUMNS)[number]['id'];
const DEFAULT_COLUMNS: TOptionalColumn[] = ['type', 'group', 'email', 'phone', 'tags', 'status'];

/** The columns the member chose, kept in this browser. */
function useColumnChoice() {
  const [visible, setVisible] = useState<TOptionalColumn[]>(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? 'null');
      if (Array.isArray(stored)) {
        return OPTIONAL_COLUMNS.map((c) => c.id).filter((id) => stored.includes(id));
      }
    } catch {
      // A damaged entry falls back to the defaults.
    }
    return DEFAULT_COLUMNS;
  });
  const toggle = (id: TOptionalColumn, on: boolean) => {
    const next = OPTIONAL_COLUMNS.map((c) => c.id).filter((c) => (c === id ? on : visible.includes(c)));
    setVisible(next);
    localStorage.setItem(COLUMNS_KEY, JSON.stringify(next));
  };
  return { visible, toggle };
}

export function ClientsPage() {
  const canView = useCan('clients.view');
  const canCreate = useCan('clients.create');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const search = route.useSearch();
  if (!canView)
    return (
      <NoAccess message="Your role does not include the firm's clients. Ask the firm owner if you need them." />
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Clients"
        description="Everyone the firm works for: search, filter and act on many at once."
        actions={
          <>
            <ClientsExportMenu search={search} />
            {canCreate ? (
              <>
                <Button variant="outline" onClick={() => setImporting(true)}>
                  <FileUp aria-hidden />
                  Import
                </Button>
                <Button onClick={() => setCreating(true)}>
                  <Plus aria-hidden />
                  New client
                </Button>
              </>
            ) : null}
          </>
        }
      />
      <ClientFormDrawer open={creating} onOpenChange={setCreating} />
      {canCreate ? <ClientImportDialog open={importing} onOpenChange={setImporting} /> : null}
      <ClientsTable onCreate={canCreate ? () => setCreating(true) : undefined} />
    </div>
  );
}

const ALL = 'all';

function ClientsTable({ onCreate }: { onCreate?: () => void }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = useNavigate();
  const canEdit = useCan('clients.edit');
  const input = clientsListInput(search);
  const list = useQuery({ ...trpc.clients.list.queryOptions(input), placeholderData: keepPreviousData });
  const options = useQuery(trpc.clients.options.queryOptions());
  const { visible, toggle } = useColumnChoice();
  const [selected, setSelected] = useState<string[]>([]);
  const setSearch = (next: Partial<TClientsSearch>) =>
    navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });

  const all: Record<TOptionalColumn | 'code' | 'name', DataTableColumn<TClientRow>> = {
    code: {
      id: 'code',
      header: 'Code',
      sortable: true,
      cell: (c) => <span className="font-mono text-xs">{c.code}</span>,
    },
    name: {
      id: 'name',
      header: 'Name',
      sortable: true,
      cell: (c) => (
        <span className="flex items-center gap-1.5 font-medium text-fg">
          {c.name}
          {c.archivedAt ? <Badge tone="grey">Archived</Badge> : null}
        </span>
      ),
    },
    type: { id: 'type', header: 'Type', cell: (c) => CLIENT_TYPE_LABELS[c.type] },
    group: {
      id: 'group',
      header: 'Group',
      cell: (c) => c.group?.name ?? <span className="text-muted-fg">—</span>,
    },
    email: { id: 'email', header: 'Email', cell: (c) => c.email ?? <span className="text-muted-fg">—</span> },
    phone: { id: 'phone', header: 'Phone', cell: (c) => c.phone ?? <span className="text-muted-fg">—</span> },
    city: { id: 'city', header: 'City', cell: (c) => c.city ?? <span className="text-muted-fg">—</span> },
    tags: {
      id: 'tags',
      header: 'Tags',
      cell: (c) => (
        <span className="flex gap-1">
          {c.tags.slice(0, 3).map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
          {c.tags.length > 3 ? <span className="text-xs text-muted-fg">+{c.tags.length - 3}</span> : null}
        </span>
      ),
    },
    status: {
      id: 'status',
      header: 'Status',
      cell: (c) =>
        c.status === 'active' ? (
          <Badge tone="green" dot>
            Active
          </Badge>
        ) : (
          <Badge tone="grey" dot>
            Inactive
          </Badge>
        ),
    },
    createdAt: {
      id: 'createdAt',
      header: 'Added',
      sortable: true,
      sortDescFirst: true,
      cell: (c) => <span className="text-muted-fg">{c.createdAt.toLocaleDateString()}</span>,
    },
  };
  const columns = [all.code, all.name, ...visible.map((id) => all[id])];

  const filtered = Boolean(
    search.search || search.type || search.groupId || search.status || search.archived,
  );
  const groups = options.data?.groups ?? [];
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
      onRowClick={(c) => go({ to: '/clients/$id', params: { id: c.id } })}
      {...(canEdit
        ? {
            selectedIds: selected,
            onSelectionChange: setSelected,
            bulkActions: (ids: string[]) => <BulkActions ids={ids} onDone={() => setSelected([])} />,
          }
        : {})}
      toolbar={
        <>
          <SearchBox
            label="Search clients"
            placeholder="Search name, code, email, PAN…"
            value={search.search}
            onSearch={(value) => setSearch({ search: value, page: undefined })}
          />
          <Select
            aria-label="Type"
            className="w-40"
            value={search.type ?? ALL}
            onValueChange={(v) =>
              setSearch({ type: v === ALL ? undefined : (v as TClientsSearch['type']), page: undefined })
            }
            options={[
              { value: ALL, label: 'All types' },
              ...CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] })),
            ]}
          />
          <Select
            aria-label="Group"
            className="w-44"
            value={search.groupId ?? ALL}
            onValueChange={(v) => setSearch({ groupId: v === ALL ? undefined : v, page: undefined })}
            options={[
              { value: ALL, label: 'All groups' },
              ...groups.map((g) => ({ value: g.id, label: g.name })),
            ]}
          />
          <Select
            aria-label="Status"
            className="w-36"
            value={search.status ?? ALL}
            onValueChange={(v) =>
              setSearch({ status: v === ALL ? undefined : (v as TClientsSearch['status']), page: undefined })
            }
            options={[
              { value: ALL, label: 'All statuses' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
          />
          <Select
            aria-label="Archived"
            className="w-44"
            value={search.archived ?? 'hide'}
            onValueChange={(v) =>
              setSearch({
                archived: v === 'hide' ? undefined : (v as TClientsSearch['archived']),
                page: undefined,
              })
            }
            options={[
              { value: 'hide', label: 'Hide archived' },
              { value: 'include', label: 'Include archived' },
              { value: 'only', label: 'Archived only' },
            ]}
          />
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline">
                <Columns3 aria-hidden />
                Columns
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuLabel>Show columns</DropdownMenuLabel>
              {OPTIONAL_COLUMNS.map((c) => (
                <DropdownMenuCheckboxItem
                  key={c.id}
                  checked={visible.includes(c.id)}
                  onCheckedChange={(on) => toggle(c.id, on === true)}
                  onSelect={(e) => e.preventDefault()}
                >
                  {c.label}
                </DropdownMenuCheckboxItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        </>
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

/** The bar's actions over the selected clients: each is one request, audited once with the count. */
function BulkActions({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const refresh = useClientsRefresh();
  const options = useQuery(trpc.clients.options.queryOptions());
  const [tagging, setTagging] = useState(false);
  const [tag, setTag] = useState('');
  const bulk = useMutation(
    trpc.clients.bulk.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Updated ${result.affected} client${result.affected === 1 ? '' : 's'}`);
        setTagging(false);
        setTag('');
        onDone();
        await refresh();
      },
    }),
  );
  const run = (action: TClientBulk['action']) => bulk.mutate({ ids, action });
  const menu = (label: string, items: { key: string; label: string; action: TClientBulk['action'] }[]) => (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" disabled={bulk.isPending}>
          {label}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
        {items.length === 0 ? <DropdownMenuLabel>Nothing to choose</DropdownMenuLabel> : null}
        {items.map((item) => (
          <DropdownMenuItem key={item.key} onSelect={() => run(item.action)}>
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
  return (
    <>
      {menu(
        'Assign member',
        (options.data?.members ?? []).map((m) => ({
          key: m.id,
          label: m.name,
          action: { kind: 'assignMember', memberId: m.id },
        })),
      )}
      {menu('Set group', [
        ...(options.data?.groups ?? []).map((g) => ({
          key: g.id,
          label: g.name,
          action: { kind: 'setGroup' as const, groupId: g.id },
        })),
        { key: 'none', label: 'No group', action: { kind: 'setGroup', groupId: null } },
      ])}
      <Button variant="outline" size="sm" onClick={() => setTagging(true)} disabled={bulk.isPending}>
        Tag
      </Button>
      {menu('Change status', [
        { key: 'active', label: 'Active', action: { kind: 'setStatus', status: 'active' } },
        { key: 'inactive', label: 'Inactive', action: { kind: 'setStatus', status: 'inactive' } },
      ])}
      <DialogRoot open={tagging} onOpenChange={setTagging}>
        <DialogContent
          title={`Tag ${ids.length} client${ids.length === 1 ? '' : 's'}`}
          description="Add a tag to the selected clients, or remove it from them."
          footer={
            <>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button
                variant="outline"
                disabled={!tag.trim()}
                onClick={() => run({ kind: 'removeTag', tag: tag.trim() })}
              >
                Remove tag
              </Button>
              <Button disabled={!tag.trim()} onClick={() => run({ kind: 'addTag', tag: tag.trim() })}>
                Add tag
              </Button>
            </>
          }
        >
          <Field
            label="Tag"
            hint={
              options.data?.tags.length ? `In use: ${options.data.tags.slice(0, 10).join(', ')}` : undefined
            }
          >
            <Input value={tag} maxLength={40} onChange={(e) => setTag(e.target.value)} autoFocus />
          </Field>
        </DialogContent>
      </DialogRoot>
    </>
  );
}
