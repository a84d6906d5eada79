import { ALL_PERMISSIONS, hasPermission } from '@domain/permissions';
import { type TRoleInput, type TRoleValues, ZRoleInput } from '@domain/roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { Button, DrawerContent, Field, Input, Switch, Textarea, toast } from '@web/ui';
import { Lock } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { type AppRouter, trpc } from '../../lib/trpc';
import { useProfile } from '../shell/use-profile';
import { PermissionMatrix } from './permission-matrix';

export type TRoleRow = inferRouterOutputs<AppRouter>['roles']['list']['rows'][number];

export type RoleEditorProps = {
  /** The role to edit; null creates a new one. */
  role: TRoleRow | null;
  canSave: boolean;
  onDone: () => void;
};

/** Create or edit a role in a side sheet: name, description, the permission matrix and the client scope. */
export function RoleEditorDrawer({ role, canSave, onDone }: RoleEditorProps) {
  const queryClient = useQueryClient();
  const profile = useProfile();
  const granted = { isOwner: profile.isOwner, permissions: profile.permissions };
  const readOnly = !canSave || role?.isOwnerRole === true;
  const form = useForm<TRoleInput, unknown, TRoleValues>({
    resolver: zodResolver(ZRoleInput),
    defaultValues: {
      name: role?.name ?? '',
      description: role?.description ?? '',
      permissions: (role?.permissions ?? []) as TRoleValues['permissions'],
      assignedClientsOnly: role?.assignedClientsOnly ?? false,
    },
  });
  const saved = async (name: string) => {
    await queryClient.invalidateQueries({ queryKey: trpc.roles.list.queryKey() });
    toast.success(role ? `Saved the role ${name}` : `Created the role ${name}`);
    onDone();
  };
  const create = useMutation(trpc.roles.create.mutationOptions({ onSuccess: (r) => saved(r.name) }));
  const update = useMutation(trpc.roles.update.mutationOptions({ onSuccess: (r) => saved(r.name) }));
  const pending = create.isPending || update.isPending;
  const submit = form.handleSubmit((values) =>
    role ? update.mutate({ ...values, id: role.id }) : create.mutate(values),
  );
  const errors = form.formState.errors;
  const title = role ? (readOnly ? role.name : `Edit ${role.name}`) : 'New role';

  return (
    <DrawerContent
      size="lg"
      title={title}
      description={
        role?.isOwnerRole
          ? undefined
          : 'Tick what members with this role may do. Changes apply on their next action.'
      }
      footer={
        readOnly ? (
          <Button variant="outline" onClick={onDone}>
            Close
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={onDone} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" form="role-editor" loading={pending}>
              {role ? 'Save role' : 'Create role'}
            </Button>
          </>
        )
      }
    >
      {role?.isOwnerRole ? (
        <div className="mb-4 flex gap-3 rounded-md border border-border bg-muted/40 p-3 text-sm">
          <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-fg" />
          <p>
            The Owner role keeps every right ({ALL_PERMISSIONS.length} of {ALL_PERMISSIONS.length}) and cannot
            be edited or deleted, so the firm always has someone who can do everything. Ownership can be
            handed to another member instead.
          </p>
        </div>
      ) : null}
      <form id="role-editor" onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field label="Name" error={errors.name?.message} required>
          <Input autoFocus={!readOnly} readOnly={readOnly} {...form.register('name')} />
        </Field>
        <Field label="Description" error={errors.description?.message}>
          <Textarea rows={2} readOnly={readOnly} {...form.register('description')} />
        </Field>
        <Controller
          control={form.control}
          name="assignedClientsOnly"
          render={({ field }) => (
            <div className="flex flex-col gap-0.5">
              <Switch
                label="Assigned clients only"
                checked={field.value ?? false}
                disabled={readOnly}
                onCheckedChange={field.onChange}
              />
              <p className="pl-11 text-xs text-muted-fg">
                Members with this role see and work only on the clients they are assigned to.
              </p>
            </div>
          )}
        />
        {!readOnly && !profile.isOwner ? (
          <p className="text-xs text-muted-fg">
            You can grant only rights you hold yourself; the others stay as they are.
          </p>
        ) : null}
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <PermissionMatrix
              value={field.value ?? []}
              onChange={field.onChange}
              readOnly={readOnly}
              canGrant={(key) => hasPermission(granted, key)}
            />
          )}
        />
        {errors.permissions?.message ? (
          <p role="alert" className="text-sm text-danger">
            {errors.permissions.message}
          </p>
        ) : null}
      </form>
    </DrawerContent>
  );
}
