import { type TInviteMember, ZInviteMember } from '@domain/team';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Field, FormSelect, Input, RecordDialog, toast } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { useTeamRefresh } from './use-team';

const EMPTY: TInviteMember = { email: '', roleId: '' };

/** Invites a person by email with a role; the server mails them a link valid for 7 days. */
export function MemberInviteDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const refresh = useTeamRefresh();
  const roles = useQuery({ ...trpc.team.roles.queryOptions(), enabled: open });
  const invite = useMutation(trpc.team.invite.mutationOptions());
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZInviteMember}
      values={EMPTY}
      submit={invite.mutateAsync}
      onSaved={async (result) => {
        toast.success(`Invitation sent to ${result.email}`);
        await refresh();
      }}
      title="Invite a member"
      description="They get an email with a link to join the firm. The link works for 7 days."
      submitLabel="Send invitation"
    >
      {({ register, control, formState: { errors } }) => (
        <>
          <Field label="Email" error={errors.email?.message} required>
            <Input type="email" autoComplete="off" autoFocus {...register('email')} />
          </Field>
          <Field
            label="Role"
            error={errors.roleId ? 'Choose a role' : undefined}
            hint="What they may see and do. You can change it later."
            required
          >
            <FormSelect
              control={control}
              name="roleId"
              disabled={roles.isPending}
              placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}
