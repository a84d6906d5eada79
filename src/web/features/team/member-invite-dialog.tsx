import { type TInviteMember, ZInviteMember } from '@domain/team';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  toast,
} from '@web/ui';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useTeamRefresh } from './use-team';

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
  const form = useForm<TInviteMember>({
    resolver: zodResolver(ZInviteMember),
    defaultValues: { email: '', roleId: '' },
  });
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Invitation sent to ${result.email}`);
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
        title="Invite a member"
        description="They get an email with a link to join the firm. The link works for 7 days."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="member-invite-form" loading={invite.isPending}>
              Send invitation
            </Button>
          </>
        }
      >
        <form
          id="member-invite-form"
          noValidate
          onSubmit={form.handleSubmit((values) => invite.mutate(values))}
          className="flex flex-col gap-4"
        >
          <Field label="Email" error={errors.email?.message} required>
            <Input type="email" autoComplete="off" autoFocus {...form.register('email')} />
          </Field>
          <Field
            label="Role"
            error={errors.roleId ? 'Choose a role' : undefined}
            hint="What they may see and do. You can change it later."
            required
          >
            <Controller
              control={form.control}
              name="roleId"
              render={({ field }) => (
                <Select
                  {...field}
                  onValueChange={field.onChange}
                  disabled={roles.isPending}
                  placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
                  options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
                />
              )}
            />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
