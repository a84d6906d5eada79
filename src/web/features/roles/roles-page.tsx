import { ALL_PERMISSIONS } from '@domain/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  Button,
  CellText,
  confirm,
  type DataTableColumn,
  Drawer,
  IconButton,
  ListScreen,
  PageHeader,
  Tooltip,
  toast,
  useListUrl,
} from '@web/ui';
import { Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { RoleEditorDrawer, type TRoleRow } from './role-editor-drawer';

const PAGE_SIZE = 50;
const route = getRouteApi('/_main/admin/roles');

/** /admin/roles: the firm's roles with how many members hold each, and the role editor. */
export function RolesPage() {
  if (!useCan('roles.view')) return <NoAccess />;
  return <RolesScreen />;
}

function RolesScreen() {
  const canCreate = useCan('roles.create');
  const canEdit = useCan('roles.edit');
  const canDelete = useCan('roles.delete');
  const queryClient = useQueryClient();
  const url = useListUrl(route.useSearch());
  const query = { page: url.search.page ?? 1, pageSize: PAGE_SIZE, search: url.search.search };
  const [editing, setEditing] = useState<TRoleRow | 'new' | null>(null);
  const list = useQuery({
    ...trpc.roles.list.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.roles.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.roles.list.queryKey() });
      },
    }),
  );

  const askDelete = async (role: TRoleRow) => {
    const ok = await confirm({
      title: `Delete the role ${role.name}?`,
      message: 'Members cannot hold a deleted role. This cannot be undone.',
      confirmLabel: 'Delete role',
      danger: true,
    });
    if (!ok) return;
    remove.mutate({ id: role.id }, { onSuccess: () => toast.success(`Deleted the role ${role.name}`) });
  };

  const columns: DataTableColumn<TRoleRow>[] = [
    {
      id: 'name',
      header: 'Role',
      minWidth: 12,
      cell: (role) => (
        <>
          <CellText className="font-medium text-fg">
            {role.name}
            {role.isOwnerRole ? (
              <Lock
                aria-label="Read-only"
                className="ml-1.5 inline size-3.5 align-[-0.125em] text-muted-fg"
              />
            ) : null}
          </CellText>
          {role.description ? (
            <CellText className="text-xs text-muted-fg">{role.description}</CellText>
          ) : null}
        </>
      ),
    },
    {
      id: 'rights',
      header: 'Rights',
      cell: (role) => `${role.permissions.length} of ${ALL_PERMISSIONS.length}`,
    },
    {
      id: 'scope',
      header: 'Clients',
      className: 'hidden md:table-cell',
      cell: (role) =>
        role.assignedClientsOnly ? (
          <Badge tone="yellow">Assigned only</Badge>
        ) : (
          <Badge tone="grey">All</Badge>
        ),
    },
    {
      id: 'members',
      header: 'Members',
      className: 'text-right',
      cell: (role) => (
        <span>
          {role.memberCount}
          {role.openInviteCount > 0 ? (
            <span className="text-muted-fg"> (+{role.openInviteCount} invited)</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'w-20 text-right',
      cell: (role) =>
        role.isOwnerRole ? (
          <span className="text-xs text-muted-fg">Every right</span>
        ) : (
          <div className="flex justify-end gap-1">
            {canEdit ? (
              <IconButton aria-label={`Edit ${role.name}`} size="sm" onClick={() => setEditing(role)}>
                <Pencil />
              </IconButton>
            ) : null}
            {canDelete ? (
              <Tooltip
                content={
                  role.memberCount + role.openInviteCount > 0 ? 'In use: move its members first' : 'Delete'
                }
              >
                <IconButton
                  aria-label={`Delete ${role.name}`}
                  size="sm"
                  className="text-danger"
                  onClick={() => askDelete(role)}
                >
                  <Trash2 />
                </IconButton>
              </Tooltip>
            ) : null}
          </div>
        ),
    },
  ];

  return (
    <div className="mx-auto max-w-6xl p-6">
      <PageHeader
        title="Roles"
        description="What each member may see and do. The Owner keeps every right."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Roles' }]}
        actions={
          canCreate ? (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" /> New role
            </Button>
          ) : null
        }
      />
      <ListScreen
        label="Roles"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(role) => role.id}
        getRowLabel={(role) => role.name}
        pageSizes={false}
        onRowClick={(role) => setEditing(role)}
        searchBox={{ label: 'Search roles', placeholder: 'Search roles' }}
      />
      <Drawer open={editing !== null} onOpenChange={(open) => (open ? null : setEditing(null))}>
        {editing !== null ? (
          <RoleEditorDrawer
            key={editing === 'new' ? 'new' : editing.id}
            role={editing === 'new' ? null : editing}
            canSave={editing === 'new' ? canCreate : canEdit}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Drawer>
    </div>
  );
}
