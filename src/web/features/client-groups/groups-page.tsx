import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Button,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  listQueryParams,
  PageHeader,
  useListUrl,
} from '@web/ui';
import { Plus, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
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
  const url = useListUrl(route.useSearch());
  const navigate = route.useNavigate();
  const query = listQueryParams(url.search, { sort: 'name', sorts: ['name', 'clients'] as const });
  const list = useQuery({ ...trpc.clientGroups.list.queryOptions(query), placeholderData: keepPreviousData });
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
      <ListScreen
        label="Client groups"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(g) => g.id}
        rowLink={(g) => ({ to: '/admin/clientgroups/$id', params: { id: g.id } })}
        searchBox={{ label: 'Search groups', placeholder: 'Search groups' }}
        noMatch={{ title: 'No groups match', message: 'Try another name.' }}
        empty={
          <EmptyState
            icon={UsersRound}
            title="No client groups yet"
            message="Group a family's or a business group's clients together."
            action={canCreate ? <Button onClick={() => setCreating(true)}>New group</Button> : undefined}
          />
        }
      />
    </div>
  );
}
