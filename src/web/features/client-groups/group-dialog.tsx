import { type TClientGroupInput, ZClientGroupInput } from '@domain/client-groups';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Textarea,
  toast,
} from '@web/ui';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
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
  const form = useForm<TClientGroupInput, unknown, z.output<typeof ZClientGroupInput>>({
    resolver: zodResolver(ZClientGroupInput),
    defaultValues: { name: '', description: '' },
  });
  useEffect(() => {
    if (open) form.reset({ name: group?.name ?? '', description: group?.description ?? '' });
  }, [open, group, form]);
  const done = async (message: string) => {
    toast.success(message);
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: trpc.clientGroups.pathKey() });
  };
  const create = useMutation(
    trpc.clientGroups.create.mutationOptions({
      onSuccess: async ({ id }) => {
        await done(`Added the group ${form.getValues('name').trim()}`);
        onCreated?.(id);
      },
    }),
  );
  const update = useMutation(
    trpc.clientGroups.update.mutationOptions({ onSuccess: () => done('Group saved') }),
  );
  const errors = form.formState.errors;
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={group ? `Edit ${group.name}` : 'New client group'}
        description="A family or a business group whose clients you look after together."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="group-form" loading={create.isPending || update.isPending}>
              {group ? 'Save group' : 'Create group'}
            </Button>
          </>
        }
      >
        <form
          id="group-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) =>
            group ? update.mutate({ groupId: group.id, ...values }) : create.mutate(values),
          )}
        >
          <Field label="Name" error={errors.name?.message} required>
            <Input autoFocus placeholder="Mehta family" {...form.register('name')} />
          </Field>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={3} {...form.register('description')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
