import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  Button,
  confirm,
  type DataTableColumn,
  EmptyState,
  IconButton,
  ListScreen,
  listPageParams,
  PageHeader,
  toast,
  useListUrl,
} from '@web/ui';
import { Pencil, Trash2, UserMinus, UserPlus, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { AddClientsDialog } from './add-clients-dialog';
import { GroupDialog } from './group-dialog';

const route = getRouteApi('/_main/admin/clientgroups/$id');

/** /admin/clientgroups/{id}: a group and its clients; add and remove them. */
export function GroupPage() {
  return (
    <RequirePermission permission="clientGroups.view">
      <GroupScreen />
    </RequirePermission>
  );
}

function GroupScreen() {
  const { id } = route.useParams();
  const url = useListUrl(route.useSearch());
  const { search } = url;
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const canEdit = useCan('clientGroups.edit');
  const canDelete = useCan('clientGroups.delete');
  const canSeeClients = useCan('clients.view');
  const query = {
    groupId: id,
    ...listPageParams(search),
    ...(search.search ? { search: search.search } : {}),
  };
  const group = useQuery({
    ...trpc.clientGroups.get.queryOptions(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.clientGroups.pathKey() });
  const remove = useMutation(
    trpc.clientGroups.removeClients.mutationOptions({
      onSuccess: async ({ removed }) => {
        toast.success(`Removed ${removed} client${removed === 1 ? '' : 's'} from the group`);
        await refresh();
      },
    }),
  );
  const destroy = useMutation(
    trpc.clientGroups.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Group deleted');
        await navigate({ to: '/admin/clientgroups' });
        await refresh();
      },
    }),
  );

  if (group.error?.data?.code === 'NOT_FOUND') {
    return (
      <RecordNotFound
        thing="client group"
        back={{ to: '/admin/clientgroups', label: 'Back to client groups' }}
      />
    );
  }
  const g = group.data;
  type TRow = NonNullable<typeof g>['clients']['rows'][number];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Client',
      truncate: true,
      minWidth: 10,
      cell: (c) => (
        <>
          <span className="font-medium">{c.name}</span>
          {c.archived ? (
            <Badge tone="grey" className="ml-2 align-middle">
              Archived
            </Badge>
          ) : null}
        </>
      ),
    },
    { id: 'code', header: 'Code', cell: (c) => c.code },
    {
      id: 'email',
      header: 'Email',
      className: 'hidden md:table-cell',
      truncate: true,
      cell: (c) => c.email ?? '-',
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'relative w-12 text-right',
      cell: (c) =>
        canEdit ? (
          <IconButton
            aria-label={`Remove ${c.name} from the group`}
            size="sm"
            onClick={async () => {
              if (
                await confirm({
                  title: `Remove ${c.name}?`,
                  message: `${c.name} leaves ${g?.name ?? 'the group'}; the client itself is not changed.`,
                  confirmLabel: 'Remove',
                })
              ) {
                remove.mutate({ groupId: id, clientIds: [c.id] });
              }
            }}
          >
            <UserMinus />
          </IconButton>
        ) : null,
    },
  ];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={g?.name ?? 'Client group'}
        description={g?.description ?? undefined}
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Client groups', to: '/admin/clientgroups' },
          { label: g?.name ?? '…' },
        ]}
        actions={
          g ? (
            <>
              {canEdit ? (
                <Button variant="outline" onClick={() => setEditing(true)}>
                  <Pencil aria-hidden /> Edit
                </Button>
              ) : null}
              {canDelete ? (
                <Button
                  variant="outline"
                  onClick={async () => {
                    if (
                      await confirm({
                        title: `Delete ${g.name}?`,
                        message: 'Only an empty group can be deleted. This cannot be undone.',
                        confirmLabel: 'Delete group',
                        danger: true,
                      })
                    ) {
                      destroy.mutate({ groupId: id });
                    }
                  }}
                >
                  <Trash2 aria-hidden /> Delete
                </Button>
              ) : null}
              {canEdit ? (
                <Button onClick={() => setAdding(true)}>
                  <UserPlus aria-hidden /> Add clients
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      {g ? (
        <>
          <GroupDialog open={editing} onOpenChange={setEditing} group={g} />
          <AddClientsDialog open={adding} onOpenChange={setAdding} group={g} />
        </>
      ) : null}
      <ListScreen
        label="Clients in the group"
        url={url}
        query={query}
        list={{ data: g?.clients, isPending: group.isPending }}
        columns={columns}
        getRowId={(c) => c.id}
        rowLink={canSeeClients ? (c) => ({ to: '/clients/$id', params: { id: c.id } }) : undefined}
        searchBox={{ label: 'Search clients', placeholder: 'Search this group' }}
        noMatch={{ icon: UsersRound, title: 'No client matches', message: 'Try another name or code.' }}
        empty={
          <EmptyState
            icon={UsersRound}
            title="No clients in this group yet"
            message="Add the clients that belong together."
            action={canEdit ? <Button onClick={() => setAdding(true)}>Add clients</Button> : undefined}
          />
        }
      />
    </div>
  );
}
