import {
  PORTAL_INVITE_TTL_DAYS,
  type TClientUserInviteForm,
  ZClientUserInviteForm,
} from '@domain/client-users';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Button, DialogClose, DialogContent, Dialog as DialogRoot, Field, Input, toast } from '@web/ui';
import { useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useClientUsersRefresh } from './use-client-users';

/**
 * Invites a person to this client's portal. Someone already in the firm's portal gets access at
 * once; anyone else gets a link by email.
 */
export function ClientUserInviteDialog({
  clientId,
  clientName,
  open,
  onOpenChange,
}: {
  clientId: string;
  clientName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const refresh = useClientUsersRefresh();
  const form = useForm<TClientUserInviteForm>({
    resolver: zodResolver(ZClientUserInviteForm),
    defaultValues: { email: '', name: '', phone: '' },
  });
  const invite = useMutation(
    trpc.clientUsers.invite.mutationOptions({
      onSuccess: async (result) => {
        toast.success(
          result.outcome === 'access'
            ? `${result.email} now has access to ${clientName}`
            : `Invitation sent to ${result.email}`,
        );
        form.reset();
        onOpenChange(false);
        await refresh();
      },
    }),
  );
  const errors = form.formState.errors;
  return (
    <DialogRoot
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent
        title="Invite to the portal"
        description={`They get an email with a link to ${clientName}'s portal. The link works for ${PORTAL_INVITE_TTL_DAYS} days.`}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="client-user-invite-form" loading={invite.isPending}>
              Send invitation
            </Button>
          </>
        }
      >
        <form
          id="client-user-invite-form"
          noValidate
          onSubmit={form.handleSubmit((values) => invite.mutate({ ...values, clientId }))}
          className="flex flex-col gap-4"
        >
          <Field label="Name" error={errors.name?.message} required>
            <Input autoComplete="off" autoFocus {...form.register('name')} />
          </Field>
          <Field label="Email" error={errors.email?.message} required hint="They sign in with this address.">
            <Input type="email" autoComplete="off" {...form.register('email')} />
          </Field>
          <Field label="Phone" error={errors.phone?.message}>
            <Input type="tel" autoComplete="off" {...form.register('phone')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
