import { relativeDate } from '@domain/dates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Avatar,
  Badge,
  Button,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  PageHeader,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Lock, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useProfile } from '../shell/use-profile';
import { InvitesCard } from './invites-card';
import { MemberActions } from './member-actions';
import { MemberInviteDialog } from './member-invite-dialog';
import { membersListInput } from './members-search';
import { type TMemberRow, useCan } from './use-team';

const route = getRouteApi('/_main/team/members');

const STATUS_FILTERS = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Deactivated' },
];

export function MembersPage() {
  const can = useCan();
  const profile = useProfile();
  const [inviting, setInviting] = useState(false);
  if (!can('team.view')) {
    return (
      <div className="mx-auto max-w-6xl p-4 sm:p-6">
        <PageHeader trail={[{ label: 'Members' }]} title="Members" />
        <EmptyState
          icon={Lock}
          title="You do not have access to the team"
          message="Ask the firm's owner or an admin if you need to see its members."
        />
      </div>
    );
  }
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Members' }]}
        title="Members"
        description={`The people of ${profile.org.name}, their roles and their access.`}
        actions={
          can('team.create') ? (
            <Button onClick={() => setInviting(true)}>
              <UserPlus aria-hidden />
              Invite member
            </Button>
          ) : null
        }
      />
      <MemberInviteDialog open={inviting} onOpenChange={setInviting} />
      <InvitesCard />
      <MembersTable onInvite={can('team.create') ? () => setInviting(true) : undefined} />
    </div>
  );
}

function MembersTable({ onInvite }: { onInvite?: () => void }) {
  const url = useListUrl(route.useSearch());
  const query = membersListInput(url.search);
  const format = useFormat();
  const list = useQuery({ ...trpc.team.list.queryOptions(query), placeholderData: keepPreviousData });

  const columns: DataTableColumn<TMemberRow>[] = [
    {
      id: 'name',
      header: 'Name',
      sortable: true,
      cell: (m) => (
        <div className="flex items-center gap-2.5">
          <Avatar name={m.name} src={m.picture} size="sm" />
          <div className="min-w-0">
            <p className="flex items-center gap-1.5 font-medium text-fg">
              {m.name}
              {m.isOwner ? <Badge tone="primary">Owner</Badge> : null}
            </p>
            {m.designation ? <p className="text-xs text-muted-fg">{m.designation}</p> : null}
          </div>
        </div>
      ),
    },
    {
      id: 'email',
      header: 'Email',
      sortable: true,
      truncate: true,
      minWidth: 10,
      cell: (m) => m.email,
      className: 'hidden md:table-cell',
    },
    { id: 'role', header: 'Role', sortable: true, cell: (m) => m.role.name },
    {
      id: 'status',
      header: 'Status',
      sortable: true,
      cell: (m) =>
        m.status === 'active' ? (
          <Badge tone="green" dot>
            Active
          </Badge>
        ) : m.status === 'disabled' ? (
          <Badge tone="grey" dot>
            Deactivated
          </Badge>
        ) : (
          <Badge tone="blue" dot>
            Invited
          </Badge>
        ),
    },
    {
      id: 'lastActiveAt',
      header: 'Last active',
      sortable: true,
      sortDescFirst: true,
      className: 'hidden lg:table-cell',
      cell: (m) => (
        <span title={m.lastActiveAt ? format.dateTime(m.lastActiveAt) : undefined} className="text-muted-fg">
          {m.lastActiveAt ? relativeDate(m.lastActiveAt) : 'Never'}
        </span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (m) => <MemberActions member={m} />,
      // relative: contains the sr-only header, which would otherwise widen the page.
      className: 'relative w-12 text-right',
    },
  ];

  return (
    <ListScreen
      label="Members"
      url={url}
      query={query}
      list={list}
      columns={columns}
      getRowId={(m) => m.id}
      searchBox={{ label: 'Search members', placeholder: 'Search by name or email' }}
      filters={[{ key: 'status', label: 'Status', all: 'All statuses', options: STATUS_FILTERS }]}
      noMatch={{
        title: 'No members match',
        message: 'Try another name or email, or clear the filters.',
        clear: true,
      }}
      empty={
        <EmptyState
          icon={Users}
          title="No members yet"
          message="Invite the people you work with."
          action={onInvite ? <Button onClick={onInvite}>Invite member</Button> : undefined}
        />
      }
    />
  );
}
