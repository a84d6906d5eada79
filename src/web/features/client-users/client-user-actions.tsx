import { useMutation } from '@tanstack/react-query';
import {
  confirm,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  IconButton,
  toast,
} from '@web/ui';
import { Ellipsis, MailPlus, UserCheck, UserMinus, UserX } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { type TClientUserRow, useClientUsersRefresh } from './use-client-users';

/** A row's menu: resend (while invited), disable or enable, and remove from this client. */
export function ClientUserActions({
  clientId,
  clientName,
  user,
}: {
  clientId: string;
  clientName: string;
  user: TClientUserRow;
}) {
  const refresh = useClientUsersRefresh();
  const ref = { clientId, clientUserId: user.id };
  const done = (message: string) => async () => {
    toast.success(message);
    await refresh();
  };
  const resend = useMutation(
    trpc.clientUsers.resendInvite.mutationOptions({
      onSuccess: done(`Invitation sent to ${user.email} again`),
    }),
  );
  const disable = useMutation(
    trpc.clientUsers.disable.mutationOptions({ onSuccess: done(`${user.name} is disabled`) }),
  );
  const enable = useMutation(
    trpc.clientUsers.enable.mutationOptions({ onSuccess: done(`${user.name} is enabled`) }),
  );
  const remove = useMutation(
    trpc.clientUsers.remove.mutationOptions({
      onSuccess: done(`${user.name} no longer has access to ${clientName}`),
    }),
  );
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <IconButton aria-label={`Actions for ${user.name}`} size="sm">
          <Ellipsis />
        </IconButton>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {user.status === 'invited' ? (
          <DropdownMenuItem onSelect={() => resend.mutate(ref)}>
            <MailPlus aria-hidden />
            Resend invitation
          </DropdownMenuItem>
        ) : null}
        {user.status === 'disabled' ? (
          <DropdownMenuItem onSelect={() => enable.mutate(ref)}>
            <UserCheck aria-hidden />
            Enable
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem
            onSelect={async () => {
              const ok = await confirm({
                title: `Disable ${user.name}?`,
                message: `${user.name} is signed out at once and cannot sign in to your portal, for any client, until you enable them again.`,
                confirmLabel: 'Disable',
                danger: true,
              });
              if (ok) disable.mutate(ref);
            }}
          >
            <UserX aria-hidden />
            Disable
          </DropdownMenuItem>
        )}
        <DropdownMenuItem
          danger
          onSelect={async () => {
            const ok = await confirm({
              title: `Remove ${user.name} from ${clientName}?`,
              message: `${user.name} will no longer see ${clientName} in the portal. Any open invitation for it stops working.`,
              confirmLabel: 'Remove access',
              danger: true,
            });
            if (ok) remove.mutate(ref);
          }}
        >
          <UserMinus aria-hidden />
          Remove access
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
