import { type TClientGroupInput, ZClientGroupInput } from '@domain/client-groups';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Field, Input, RecordDialog, Textarea, toast } from '@web/ui';
import { trpc } from '../../lib/trpc';

type TGroup = { id: string; name: string; description: string | null };

/** Creates a client group, or renames the one given. */
export function GroupDialog({
  open,
  onOpenChange,
  group,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  group?: TGroup | null;
  onCreated?: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const create = useMutation(trpc.clientGroups.create.mutationOptions());
  const update = useMutation(trpc.clientGroups.update.mutationOptions());
  const values: TClientGroupInput = { name: group?.name ?? '', description: group?.description ?? '' };
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZClientGroupInput}
      values={values}
      submit={(v) => (group ? update.mutateAsync({ groupId: group.id, ...v }) : create.mutateAsync(v))}
      onSaved={async (saved, v) => {
        toast.success(group ? 'Group saved' : `Added the group ${v.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.clientGroups.pathKey() });
        if (!group && saved && 'id' in saved) onCreated?.(saved.id);
      }}
      title={group ? `Edit ${group.name}` : 'New client group'}
      description="A family or a business group whose clients you look after together."
      submitLabel={group ? 'Save group' : 'Create group'}
    >
      {({ register, formState: { errors } }) => (
        <>
          <Field label="Name" error={errors.name?.message} required>
            <Input autoFocus placeholder="Mehta family" {...register('name')} />
          </Field>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={3} {...register('description')} />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}
