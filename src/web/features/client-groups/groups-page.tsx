import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button, DataTable, type DataTableColumn, EmptyState, PageHeader, SearchBox } from '@web/ui';
import { Plus, Search, UsersRound } from 'lucide-react';
import { useCallback, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { listInput, type TListSearch } from '../services/list-search';
import type { TGroupRow } from '../services/use-services';
import { RequirePermission, useCan } from '../shell/access';
import { GroupDialog } from './group-dialog';

const route = getRouteApi('/_main/admin/clientgroups/');

/** /admin/clientgroups: families and business groups of clients. */
export function GroupsPage() {
  return (
    <RequirePermission permission="clientGroups.view">
      <GroupsScreen />
    </RequirePermission>
  );
}

function GroupsScreen() {
  const canCreate = useCan('clientGroups.create');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const input = listInput(search, ['name', 'clients'] as const, 'name');
  const list = useQuery({ ...trpc.clientGroups.list.queryOptions(input), placeholderData: keepPreviousData });
  const setSearch = (next: Partial<TListSearch>) =>
    navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });
  const onSearch = useCallback(
    (value: string | undefined) =>
      navigate({ search: (prev) => ({ ...prev, search: value, page: undefined }), replace: true }),
    [navigate],
  );
  const [creating, setCreating] = useState(false);
  const open = (id: string) => navigate({ to: '/admin/clientgroups/$id', params: { id } });

  const columns: DataTableColumn<TGroupRow>[] = [
    {
      id: 'name',
      header: 'Group',
      sortable: true,
      truncate: true,
      minWidth: 10,
      cell: (g) => <span className="font-medium">{g.name}</span>,
    },
    {
      id: 'description',
      header: 'Description',
      className: 'hidden md:table-cell',
      truncate: true,
      cell: (g) => <span className="text-muted-fg">{g.description ?? '-'}</span>,
    },
    {
      id: 'clients',
      header: 'Clients',
      sortable: true,
      sortDescFirst: true,
      className: 'text-right tabular-nums',
      cell: (g) => g.clientCount,
    },
  ];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Client groups"
        description="Families and business groups: see and manage their clients together."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Client groups' }]}
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New group
            </Button>
          ) : null
        }
      />
      <GroupDialog open={creating} onOpenChange={setCreating} onCreated={open} />
      <DataTable
        label="Client groups"
        columns={columns}
        rows={list.data?.rows ?? []}
        getRowId={(g) => g.id}
        total={list.data?.total ?? 0}
        page={input.page}
        pageSize={input.pageSize}
        sort={input.sort}
        direction={input.direction}
        loading={list.isPending}
        rowLink={(g) => ({ to: '/admin/clientgroups/$id', params: { id: g.id } })}
        onPageChange={(page) => setSearch({ page })}
        onPageSizeChange={(pageSize) => setSearch({ pageSize, page: undefined })}
        onSortChange={(sort, direction) => setSearch({ sort, direction })}
        pageSizeOptions={[25, 50, 100]}
        toolbar={
          <SearchBox
            value={search.search}
            onSearch={onSearch}
            label="Search groups"
            placeholder="Search groups"
          />
        }
        empty={
          search.search ? (
            <EmptyState icon={Search} title="No groups match" message="Try another name." />
          ) : (
            <EmptyState
              icon={UsersRound}
              title="No client groups yet"
              message="Group a family's or a business group's clients together."
              action={canCreate ? <Button onClick={() => setCreating(true)}>New group</Button> : undefined}
            />
          )
        }
      />
    </div>
  );
}
