import { ZVaultEntryChanges, ZVaultEntryInput } from '@domain/vault';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Skeleton,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { useEffect, useRef } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { ClientPicker, type TClientChoice } from './client-picker';
import { PasswordField } from './password-field';
import { type TVaultDetail, useVaultRefresh } from './use-vault';

type TEntryForm = {
  title: string;
  client: TClientChoice;
  url: string;
  username: string;
  password: string;
  notes: string;
  tags: string;
};
type TEntryOutput = ReturnType<typeof ZVaultEntryChanges.parse>;

function formOf(entry?: TVaultDetail): TEntryForm {
  return {
    title: entry?.title ?? '',
    client: entry?.client ? { id: entry.client.id, name: entry.client.name } : null,
    url: entry?.url ?? '',
    username: entry?.username ?? '',
    password: '',
    notes: entry?.notes ?? '',
    tags: entry?.tags.join(', ') ?? '',
  };
}

const FIELD_OF: Record<string, keyof TEntryForm> = { clientId: 'client' };

/** Checks with the server's schema; on an edit a blank password means "keep the current one". */
const resolverFor =
  (isEditing: () => boolean): Resolver<TEntryForm, unknown, TEntryOutput> =>
  async (values) => {
    const editing = isEditing();
    const schema = editing ? ZVaultEntryChanges : ZVaultEntryInput;
    const parsed = schema.safeParse({
      ...values,
      clientId: values.client?.id ?? null,
      password: editing && values.password === '' ? null : values.password,
      tags: values.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    });
    if (parsed.success) return { values: parsed.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const head = String(issue.path[0] ?? 'title');
      const field = FIELD_OF[head] ?? head;
      errors[field] ??= { type: 'validate', message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<TEntryForm> };
  };

/**
 * "New password" and "Edit password": one dialog. A member who may not edit sees the entry read-only.
 */
export function VaultEntryDialog({
  open,
  onOpenChange,
  entryId,
  readOnly = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Absent: a new entry. */
  entryId?: string;
  readOnly?: boolean;
}) {
  const editing = Boolean(entryId);
  const refresh = useVaultRefresh();
  const format = useFormat();
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const entry = useQuery({ ...trpc.vault.get.queryOptions({ id: entryId ?? '' }), enabled: open && editing });
  const form = useForm<TEntryForm, unknown, TEntryOutput>({
    // The same dialog serves entry after entry: the resolver asks which mode it is in now.
    resolver: resolverFor(() => editingRef.current),
    defaultValues: formOf(),
  });
  const loaded = entry.data;
  useEffect(() => {
    if (open) form.reset(formOf(loaded));
  }, [open, loaded, form]);
  const done = async () => {
    onOpenChange(false);
    await refresh();
  };
  const create = useMutation(
    trpc.vault.create.mutationOptions({
      onSuccess: async (created) => {
        toast.success(`Saved “${created.title}” to the vault`);
        await done();
      },
    }),
  );
  const update = useMutation(
    trpc.vault.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Password entry saved');
        await done();
      },
    }),
  );
  const errors = form.formState.errors;
  const submit = form.handleSubmit((values) => {
    if (entryId) update.mutate({ id: entryId, data: values });
    else create.mutate({ ...values, password: values.password ?? '' });
  });
  const loading = editing && entry.isPending;
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="lg"
        title={!editing ? 'New password' : readOnly ? (loaded?.title ?? 'Password') : 'Edit password'}
        description={
          editing && loaded
            ? `Password last changed ${format.dateTime(loaded.passwordChangedAt)}${loaded.passwordChangedBy ? ` by ${loaded.passwordChangedBy.name}` : ''}${loaded.createdBy ? `; added by ${loaded.createdBy.name}` : ''}.`
            : 'Stored encrypted. Only members allowed to reveal passwords can see it, and each reveal is logged.'
        }
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">{readOnly ? 'Close' : 'Cancel'}</Button>
            </DialogClose>
            {readOnly ? null : (
              <Button
                type="submit"
                form="vault-entry-form"
                loading={create.isPending || update.isPending}
                disabled={loading}
              >
                {editing ? 'Save' : 'Save password'}
              </Button>
            )}
          </>
        }
      >
        {loading ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : (
          <form id="vault-entry-form" noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
            <fieldset disabled={readOnly} className="contents">
              <Field label="Title" error={errors.title?.message} required>
                <Input autoComplete="off" placeholder="e.g. Income tax portal" {...form.register('title')} />
              </Field>
              <Field label="Client" error={errors.client?.message} hint="Leave empty for the firm’s own">
                <Controller
                  control={form.control}
                  name="client"
                  render={({ field }) => (
                    <ClientPicker value={field.value} onChange={field.onChange} disabled={readOnly} />
                  )}
                />
              </Field>
              <Field label="URL" error={errors.url?.message} hint="A full address (https://…) becomes a link">
                <Input autoComplete="off" inputMode="url" {...form.register('url')} />
              </Field>
              <Field label="Username" error={errors.username?.message}>
                <Input autoComplete="off" spellCheck={false} {...form.register('username')} />
              </Field>
              {readOnly ? null : (
                <div className="sm:col-span-2">
                  <PasswordField
                    label="Password"
                    error={errors.password?.message}
                    required={!editing}
                    hint={editing ? 'Leave empty to keep the current password' : undefined}
                    {...form.register('password')}
                    onGenerate={(password) =>
                      form.setValue('password', password, { shouldDirty: true, shouldValidate: true })
                    }
                  />
                </div>
              )}
              <Field label="Tags" error={errors.tags?.message} hint="Separate tags with commas">
                <Input autoComplete="off" {...form.register('tags')} />
              </Field>
              <div className="sm:col-span-2">
                <Field
                  label="Notes"
                  error={errors.notes?.message}
                  hint="Not encrypted: keep secrets in the password"
                >
                  <Textarea rows={3} {...form.register('notes')} />
                </Field>
              </div>
            </fieldset>
          </form>
        )}
      </DialogContent>
    </DialogRoot>
  );
}
