import { relativeDate } from '@domain/dates';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Badge, Button, confirm, DataTable, type DataTableColumn, toast, useFormat } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { INVITES_PAGE_SIZE } from './members-search';
import { type TInviteRow, useCan, useTeamRefresh } from './use-team';

/** Invitations not yet accepted or revoked; hidden while there are none. */
export function InvitesCard() {
  const can = useCan();
  const refresh = useTeamRefresh();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const invites = useQuery({
    ...trpc.team.invites.queryOptions({ page, pageSize: INVITES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const resend = useMutation(
    trpc.team.resendInvite.mutationOptions({
      onSuccess: async () => {
        toast.success('Invitation sent again');
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.team.revokeInvite.mutationOptions({
      onSuccess: async () => {
        toast.success('Invitation revoked');
        await refresh();
      },
    }),
  );
  const total = invites.data?.total ?? 0;
  if (total === 0) return null;

  const manage = can('team.create');
  const columns: DataTableColumn<TInviteRow>[] = [
    { id: 'email', header: 'Email', cell: (i) => <span className="font-medium text-fg">{i.email}</span> },
    { id: 'role', header: 'Role', cell: (i) => i.role.name },
    {
      id: 'invitedBy',
      header: 'Invited by',
      className: 'hidden md:table-cell',
      cell: (i) => i.invitedBy ?? '-',
    },
    {
      id: 'expiresAt',
      header: 'Link',
      cell: (i) =>
        i.expired ? (
          <Badge tone="red" dot>
            Expired
          </Badge>
        ) : (
          <Badge tone="blue" dot title={format.dateTime(i.expiresAt)}>
            Expires {relativeDate(i.expiresAt)}
          </Badge>
        ),
    },
    ...(manage
      ? [
          {
            id: 'actions',
            header: <span className="sr-only">Actions</span>,
            // relative: contains the sr-only header, which would otherwise widen the page.
            className: 'relative text-right',
            cell: (i: TInviteRow) => (
              <div className="flex justify-end gap-1">
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Resend the invitation to ${i.email}`}
                  loading={resend.isPending && resend.variables?.inviteId === i.id}
                  onClick={() => resend.mutate({ inviteId: i.id })}
                >
                  Resend
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Revoke the invitation to ${i.email}`}
                  onClick={async () => {
                    const ok = await confirm({
                      title: `Revoke the invitation to ${i.email}?`,
                      message: 'The link in their email stops working. You can invite them again later.',
                      confirmLabel: 'Revoke',
                      danger: true,
                    });
                    if (ok) revoke.mutate({ inviteId: i.id });
                  }}
                >
                  Revoke
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <section aria-labelledby="invites-heading" className="flex flex-col gap-2">
      <h2 id="invites-heading" className="text-sm font-semibold text-fg">
        Pending invitations <span className="font-normal text-muted-fg">({total})</span>
      </h2>
      <DataTable
        label="Pending invitations"
        columns={columns}
        rows={invites.data?.rows ?? []}
        getRowId={(i) => i.id}
        total={total}
        page={page}
        pageSize={INVITES_PAGE_SIZE}
        onPageChange={setPage}
      />
    </section>
  );
}
