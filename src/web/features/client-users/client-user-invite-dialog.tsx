import {
  PORTAL_INVITE_TTL_DAYS,
  type TClientUserInviteForm,
  ZClientUserInviteForm,
} from '@domain/client-users';
import { useMutation } from '@tanstack/react-query';
import { Field, Input, RecordDialog, toast } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { useClientUsersRefresh } from './use-client-users';

const EMPTY: TClientUserInviteForm = { email: '', name: '', phone: '' };

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
  const invite = useMutation(trpc.clientUsers.invite.mutationOptions());
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZClientUserInviteForm}
      values={EMPTY}
      submit={(values) => invite.mutateAsync({ ...values, clientId })}
      onSaved={async (result) => {
        toast.success(
          result.outcome === 'access'
            ? `${result.email} now has access to ${clientName}`
            : `Invitation sent to ${result.email}`,
        );
        await refresh();
      }}
      title="Invite to the portal"
      description={`They get an email with a link to ${clientName}'s portal. The link works for ${PORTAL_INVITE_TTL_DAYS} days.`}
      submitLabel="Send invitation"
    >
      {({ register, formState: { errors } }) => (
        <>
          <Field label="Name" error={errors.name?.message} required>
            <Input autoComplete="off" autoFocus {...register('name')} />
          </Field>
          <Field label="Email" error={errors.email?.message} required hint="They sign in with this address.">
            <Input type="email" autoComplete="off" {...register('email')} />
          </Field>
          <Field label="Phone" error={errors.phone?.message}>
            <Input type="tel" autoComplete="off" {...register('phone')} />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}
