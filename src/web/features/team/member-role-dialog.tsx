import { type TChangeRole, ZChangeRole } from '@domain/team';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, DialogClose, DialogContent, Dialog as DialogRoot, Field, Select, toast } from '@web/ui';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { type TMemberRow, useTeamRefresh } from './use-team';

/** Moves a member to another role; the Owner role is not offered (it goes with ownership). */
export function MemberRoleDialog({
  member,
  open,
  onOpenChange,
}: {
  member: TMemberRow;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const refresh = useTeamRefresh();
  const roles = useQuery({ ...trpc.team.roles.queryOptions(), enabled: open });
  const form = useForm<TChangeRole>({
    resolver: zodResolver(ZChangeRole),
    values: { memberId: member.id, roleId: member.role.id },
  });
  const change = useMutation(
    trpc.team.changeRole.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`${member.name} is now ${result.role.name}`);
        onOpenChange(false);
        await refresh();
      },
    }),
  );
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Change ${member.name}’s role`}
        description="The new role's rights apply from their next action."
        size="sm"
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="member-role-form" loading={change.isPending}>
              Save role
            </Button>
          </>
        }
      >
        <form
          id="member-role-form"
          noValidate
          onSubmit={form.handleSubmit((values) => change.mutate(values))}
          className="flex flex-col gap-4"
        >
          <Field label="Role" error={form.formState.errors.roleId?.message}>
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
