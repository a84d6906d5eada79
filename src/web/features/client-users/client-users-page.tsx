import { CLIENT_USER_STATUS_LABELS } from '@domain/client-users';
import { relativeDate } from '@domain/dates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  type BadgeTone,
  Button,
  type DataTableColumn,
  EmptyState,
  ListScreen,
  useFormat,
  useListUrl,
} from '@web/ui';
import { UserPlus, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { ClientUserActions } from './client-user-actions';
import { ClientUserInviteDialog } from './client-user-invite-dialog';
import type { TClientUserRow } from './use-client-users';

const route = getRouteApi('/_main/clients/$id');
const listRoute = getRouteApi('/_main/clients/$id/client-users');
const PAGE_SIZE = 25;

const STATUS_TONES: Record<TClientUserRow['status'], BadgeTone> = {
  invited: 'blue',
  active: 'green',
  disabled: 'grey',
};

/** /clients/{id}/client-users: who may use the portal for this client, and their invitations. */
export function ClientUsersPage() {
  const { id } = route.useParams();
  const canEdit = useCan('clients.edit');
  const format = useFormat();
  const url = useListUrl(listRoute.useSearch());
  const query = { clientId: id, page: url.search.page ?? 1, pageSize: PAGE_SIZE };
  const [inviting, setInviting] = useState(false);
  const client = useQuery(trpc.clients.get.queryOptions({ clientId: id }));
  const list = useQuery({
    ...trpc.clientUsers.list.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const clientName = client.data?.name ?? 'this client';

  const columns: DataTableColumn<TClientUserRow>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: (u) => (
        <div className="flex flex-col">
          <span className="font-medium text-fg">{u.name}</span>
          <span className="text-xs text-muted-fg">{u.email}</span>
        </div>
      ),
    },
    { id: 'phone', header: 'Phone', className: 'hidden md:table-cell', cell: (u) => u.phone ?? '-' },
    {
      id: 'status',
      header: 'Status',
      cell: (u) => (
        <Badge tone={STATUS_TONES[u.status]} dot>
          {CLIENT_USER_STATUS_LABELS[u.status]}
        </Badge>
      ),
    },
    {
      id: 'lastSignInAt',
      header: 'Last sign-in',
      cell: (u) => (
        <span title={u.lastSignInAt ? format.dateTime(u.lastSignInAt) : undefined}>
          {u.lastSignInAt ? relativeDate(u.lastSignInAt) : 'Never'}
        </span>
      ),
    },
    {
      id: 'invite',
      header: 'Invitation',
      className: 'hidden sm:table-cell',
      cell: (u) =>
        u.invite ? (
          <span className="flex flex-col text-xs">
            <span>Sent {relativeDate(u.invite.sentAt)}</span>
            {u.invite.expired ? (
              <span className="text-danger">Expired: resend it</span>
            ) : (
              <span className="text-muted-fg" title={format.dateTime(u.invite.expiresAt)}>
                Expires {relativeDate(u.invite.expiresAt)}
              </span>
            )}
          </span>
        ) : (
          <span className="text-muted-fg">-</span>
        ),
    },
    ...(canEdit
      ? [
          {
            id: 'actions',
            header: <span className="sr-only">Actions</span>,
            className: 'relative w-10 text-right',
            cell: (u: TClientUserRow) => <ClientUserActions clientId={id} clientName={clientName} user={u} />,
          },
        ]
      : []),
  ];

  const inviteButton = canEdit ? (
    <Button onClick={() => setInviting(true)}>
      <UserPlus aria-hidden />
      Invite to portal
    </Button>
  ) : null;

  return (
    <section aria-labelledby="client-users-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="client-users-heading" className="text-base font-semibold text-fg">
            Portal users
          </h2>
          <p className="text-sm text-muted-fg">
            People who sign in to your client portal to see and share {clientName}'s documents and to-dos.
          </p>
        </div>
        {list.data?.total ? inviteButton : null}
      </div>
      <ListScreen
        label="Portal users"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(u) => u.id}
        pageSizes={false}
        empty={
          <EmptyState
            icon={UsersRound}
            title="No one uses the portal for this client yet"
            message="Invite the client's owner, a director or a family member: they sign in with a code sent to their email."
            action={inviteButton}
          />
        }
      />
      {canEdit ? (
        <ClientUserInviteDialog
          clientId={id}
          clientName={clientName}
          open={inviting}
          onOpenChange={setInviting}
        />
      ) : null}
    </section>
  );
}
