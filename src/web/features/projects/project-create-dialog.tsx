import { BUDGET_HELP } from '@domain/budgets';
import { type TProjectCreateInput, type TProjectCreateValues, ZProjectCreate } from '@domain/projects';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Button,
  Checkbox,
  DatePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  toast,
} from '@web/ui';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { ClientPicker } from './client-picker';
import { OwnerSelect } from './owner-select';
import { useProjectsRefresh } from './use-project-actions';

const NONE = 'none';

/** Creates a project by hand: for a client, optionally for a service and from a template's tasks. */
export function ProjectCreateDialog({
  open,
  onOpenChange,
  fixed = {},
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fixed?: { clientId?: string; serviceId?: string };
}) {
  const go = useNavigate();
  const refresh = useProjectsRefresh();
  const options = useQuery({ ...trpc.projects.options.queryOptions(), enabled: open });
  const templates = useQuery({ ...trpc.projectTemplates.options.queryOptions(), enabled: open });
  const empty: TProjectCreateInput = {
    clientId: fixed.clientId ?? '',
    serviceId: fixed.serviceId ?? null,
    templateId: null,
    name: '',
    startDate: null,
    dueDate: null,
    ownerId: null,
    memberIds: [],
    budgetMinutes: '',
  };
  const form = useForm<TProjectCreateInput, unknown, TProjectCreateValues>({
    resolver: zodResolver(ZProjectCreate),
    defaultValues: empty,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) form.reset(empty);
  }, [open]);
  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: async ({ id }) => {
        toast.success(`Created ${form.getValues('name')}`);
        onOpenChange(false);
        await refresh();
        await go({ to: '/projects/$id', params: { id } });
      },
    }),
  );
  const errors = form.formState.errors;
  const services = options.data?.services ?? [];
  const members = options.data?.members ?? [];
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="New project"
        description="A piece of work for a client. With a template, its tasks are created too."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="project-form" loading={create.isPending}>
              Create project
            </Button>
          </>
        }
      >
        <form
          id="project-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => create.mutate(values))}
        >
          {fixed.clientId ? null : (
            <Field label="Client" error={errors.clientId?.message} required>
              <Controller
                control={form.control}
                name="clientId"
                render={({ field }) => (
                  <ClientPicker value={field.value || null} onChange={(v) => field.onChange(v ?? '')} />
                )}
              />
            </Field>
          )}
          <Field label="Name" error={errors.name?.message} required>
            <Input autoFocus placeholder="Statutory audit 2026" {...form.register('name')} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Service" error={errors.serviceId?.message}>
              <Controller
                control={form.control}
                name="serviceId"
                render={({ field }) => (
                  <Select
                    name={field.name}
                    onBlur={field.onBlur}
                    disabled={!!fixed.serviceId}
                    value={field.value ?? NONE}
                    onValueChange={(v) => {
                      field.onChange(v === NONE ? null : v);
                      const linked = services.find((s) => s.id === v)?.templateId;
                      if (linked && !form.getValues('templateId')) form.setValue('templateId', linked);
                    }}
                    options={[
                      { value: NONE, label: 'No service' },
                      ...services.map((s) => ({ value: s.id, label: s.name })),
                    ]}
                  />
                )}
              />
            </Field>
            <Field
              label="Template"
              hint="Its tasks are added, due from the project's due date"
              error={errors.templateId?.message}
            >
              <Controller
                control={form.control}
                name="templateId"
                render={({ field }) => (
                  <Select
                    name={field.name}
                    onBlur={field.onBlur}
                    value={field.value ?? NONE}
                    onValueChange={(v) => field.onChange(v === NONE ? null : v)}
                    options={[
                      { value: NONE, label: 'No template' },
                      ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
                    ]}
                  />
                )}
              />
            </Field>
            <Field label="Start date" error={errors.startDate?.message}>
              <Controller
                control={form.control}
                name="startDate"
                render={({ field }) => <DatePicker {...field} />}
              />
            </Field>
            <Field label="Due date" error={errors.dueDate?.message}>
              <Controller
                control={form.control}
                name="dueDate"
                render={({ field }) => <DatePicker {...field} />}
              />
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Owner" error={errors.ownerId?.message}>
              <Controller
                control={form.control}
                name="ownerId"
                render={({ field }) => <OwnerSelect field={field} members={members} />}
              />
            </Field>
            <Field
              label="Hours budget"
              hint={`${BUDGET_HELP}; left blank, the template's`}
              error={errors.budgetMinutes?.message}
            >
              <Input inputMode="decimal" {...form.register('budgetMinutes')} />
            </Field>
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Members</legend>
            <Controller
              control={form.control}
              name="memberIds"
              render={({ field }) => (
                <div className="grid max-h-40 gap-1.5 overflow-y-auto sm:grid-cols-2">
                  {members.map((m) => (
                    <Checkbox
                      key={m.id}
                      label={m.name}
                      checked={(field.value ?? []).includes(m.id)}
                      onCheckedChange={(on) =>
                        field.onChange(
                          on === true
                            ? [...(field.value ?? []), m.id]
                            : (field.value ?? []).filter((id) => id !== m.id),
                        )
                      }
                    />
                  ))}
                </div>
              )}
            />
            {errors.memberIds?.message ? (
              <p className="text-sm text-danger">{errors.memberIds.message}</p>
            ) : null}
          </fieldset>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
