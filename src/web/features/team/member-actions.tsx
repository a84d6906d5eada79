import { useMutation } from '@tanstack/react-query';
import {
  confirm,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  IconButton,
  toast,
} from '@web/ui';
import { Crown, Ellipsis, KeyRound, ShieldCheck, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useProfile } from '../shell/use-profile';
import { MemberRoleDialog } from './member-role-dialog';
import { type TMemberRow, useCan, useTeamRefresh } from './use-team';

/** A row's menu: only what the signed-in member may do to this member is offered. */
export function MemberActions({ member }: { member: TMemberRow }) {
  const can = useCan();
  const profile = useProfile();
  const refresh = useTeamRefresh();
  const [changingRole, setChangingRole] = useState(false);
  const self = member.id === profile.id;
  const deactivate = useMutation(
    trpc.team.deactivate.mutationOptions({
      onSuccess: async () => {
        toast.success(`${member.name} is deactivated`);
        await refresh();
      },
    }),
  );
  const reactivate = useMutation(
    trpc.team.reactivate.mutationOptions({
      onSuccess: async () => {
        toast.success(`${member.name} is active again`);
        await refresh();
      },
    }),
  );
  const resetMfa = useMutation(
    trpc.team.resetMfa.mutationOptions({
      onSuccess: () => toast.success(`${member.name}’s two-step sign-in is reset`),
    }),
  );
  const transfer = useMutation(
    trpc.team.transferOwnership.mutationOptions({
      onSuccess: async () => {
        toast.success(`${member.name} now owns the firm`);
        await refresh();
      },
    }),
  );

  // The owner is protected and nobody manages themselves here.
  const editable = can('team.edit') && !member.isOwner && !self;
  const canChangeRole = editable && member.status === 'active';
  const canTransfer = profile.isOwner && !self && member.status === 'active';
  if (!editable && !canTransfer) return null;

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <IconButton aria-label={`Actions for ${member.name}`} size="sm">
            <Ellipsis />
          </IconButton>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {canChangeRole ? (
            <DropdownMenuItem onSelect={() => setChangingRole(true)}>
              <ShieldCheck aria-hidden />
              Change role
            </DropdownMenuItem>
          ) : null}
          {editable && member.status === 'active' ? (
            <DropdownMenuItem
              onSelect={async () => {
                const ok = await confirm({
                  title: `Reset ${member.name}’s two-step sign-in?`,
                  message: `Their authenticator app and recovery codes stop working. If the firm requires two-step sign-in, they set it up again at their next sign-in.`,
                  confirmLabel: 'Reset',
                  danger: true,
                });
                if (ok) resetMfa.mutate({ memberId: member.id });
              }}
            >
              <KeyRound aria-hidden />
              Reset two-step sign-in
            </DropdownMenuItem>
          ) : null}
          {editable && member.status === 'active' ? (
            <DropdownMenuItem
              danger
              onSelect={async () => {
                const ok = await confirm({
                  title: `Deactivate ${member.name}?`,
                  message: `${member.name} will lose access to the firm at once. You can reactivate them later.`,
                  confirmLabel: 'Deactivate',
                  danger: true,
                });
                if (ok) deactivate.mutate({ memberId: member.id });
              }}
            >
              <UserX aria-hidden />
              Deactivate
            </DropdownMenuItem>
          ) : null}
          {editable && member.status === 'disabled' ? (
            <DropdownMenuItem
              onSelect={async () => {
                const ok = await confirm({
                  title: `Reactivate ${member.name}?`,
                  message: `${member.name} will have access to the firm again, with the role ${member.role.name}.`,
                  confirmLabel: 'Reactivate',
                });
                if (ok) reactivate.mutate({ memberId: member.id });
              }}
            >
              <UserCheck aria-hidden />
              Reactivate
            </DropdownMenuItem>
          ) : null}
          {canTransfer ? (
            <>
              {editable ? <DropdownMenuSeparator /> : null}
              <DropdownMenuItem
                danger
                onSelect={async () => {
                  const ok = await confirm({
                    title: `Make ${member.name} the owner?`,
                    message: `${member.name} will own the firm and keep every right. You will become an Admin, and only the new owner can give ownership back.`,
                    confirmLabel: 'Transfer ownership',
                    danger: true,
                  });
                  if (ok) transfer.mutate({ memberId: member.id });
                }}
              >
                <Crown aria-hidden />
                Transfer ownership
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {canChangeRole ? (
        <MemberRoleDialog member={member} open={changingRole} onOpenChange={setChangingRole} />
      ) : null}
    </>
  );
}
