import { BUDGET_HELP, budgetText } from '@domain/budgets';
import { type TProjectCreateInput, ZProjectCreate, ZProjectUpdate } from '@domain/projects';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Checkbox,
  DatePicker,
  Field,
  FormSelect,
  Input,
  RecordDialog,
  Textarea,
  type TRecordForm,
  toast,
} from '@web/ui';
import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { ClientPicker } from './client-picker';
import { OwnerSelect } from './owner-select';
import type { TProjectDetail } from './project-page';
import { useProjectsRefresh } from './use-project-actions';

type TProjectUpdateInput = z.input<typeof ZProjectUpdate>;
/** What a new project and an edited one both have: the fields the two forms share. */
type TSharedInput = Pick<TProjectUpdateInput, 'name' | 'startDate' | 'dueDate' | 'ownerId' | 'budgetMinutes'>;
type TMember = { id: string; name: string };

const fromProject = (p: TProjectDetail): TProjectUpdateInput => ({
  projectId: p.id,
  name: p.name,
  description: p.description ?? '',
  startDate: p.startDate,
  dueDate: p.dueDate,
  ownerId: p.ownerId,
  budgetMinutes: budgetText(p.budgetMinutes),
});

/**
 * Creates a project by hand (for a client, optionally for a service and from a template's tasks),
 * or edits the one given: its name, description, dates, owner and hours budget.
 */
export function ProjectDialog({
  open,
  onOpenChange,
  project,
  fixed = {},
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project?: TProjectDetail;
  fixed?: { clientId?: string; serviceId?: string };
}) {
  const go = useNavigate();
  const refresh = useProjectsRefresh();
  const options = useQuery({ ...trpc.projects.options.queryOptions(), enabled: open });
  const create = useMutation(trpc.projects.create.mutationOptions());
  const update = useMutation(trpc.projects.update.mutationOptions());
  const members = options.data?.members ?? [];
  if (project) {
    return (
      <RecordDialog
        open={open}
        onOpenChange={onOpenChange}
        schema={ZProjectUpdate}
        values={fromProject(project)}
        submit={update.mutateAsync}
        onSaved={async () => {
          toast.success('Project saved');
          await refresh();
        }}
        title="Edit project"
        submitLabel="Save"
      >
        {(form) => (
          <>
            <SharedFields form={shared(form)} members={members} budgetHint={BUDGET_HELP} />
            <Field label="Description" error={form.formState.errors.description?.message}>
              <Textarea rows={3} {...form.register('description')} />
            </Field>
          </>
        )}
      </RecordDialog>
    );
  }
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
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZProjectCreate}
      values={empty}
      submit={create.mutateAsync}
      onSaved={async ({ id }, values) => {
        toast.success(`Created ${values.name}`);
        await refresh();
        await go({ to: '/projects/$id', params: { id } });
      }}
      title="New project"
      description="A piece of work for a client. With a template, its tasks are created too."
      submitLabel="Create project"
    >
      {(form) => (
        <NewProjectFields
          form={form}
          fixed={fixed}
          members={members}
          services={options.data?.services ?? []}
        />
      )}
    </RecordDialog>
  );
}

// Both forms' values hold the shared fields under the same names; react-hook-form's types cannot
// see that one form is the other's subtype, so the shared part is typed once here.
const shared = (
  form: TRecordForm<TProjectCreateInput, unknown> | TRecordForm<TProjectUpdateInput, unknown>,
) => form as unknown as TRecordForm<TSharedInput, unknown>;

function NewProjectFields({
  form,
  fixed,
  members,
  services,
}: {
  form: TRecordForm<TProjectCreateInput, unknown>;
  fixed: { clientId?: string; serviceId?: string };
  members: TMember[];
  services: { id: string; name: string; templateId: string | null }[];
}) {
  const templates = useQuery(trpc.projectTemplates.options.queryOptions());
  const errors = form.formState.errors;
  return (
    <>
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
      <SharedFields
        form={shared(form)}
        members={members}
        budgetHint={`${BUDGET_HELP}; left blank, the template's`}
        isNew
      >
        <Field label="Service" error={errors.serviceId?.message}>
          <FormSelect
            control={form.control}
            name="serviceId"
            none="No service"
            disabled={!!fixed.serviceId}
            onChosen={(v) => {
              const linked = services.find((s) => s.id === v)?.templateId;
              if (linked && !form.getValues('templateId')) form.setValue('templateId', linked);
            }}
            options={services.map((s) => ({ value: s.id, label: s.name }))}
          />
        </Field>
        <Field
          label="Template"
          hint="Its tasks are added, due from the project's due date"
          error={errors.templateId?.message}
        >
          <FormSelect
            control={form.control}
            name="templateId"
            none="No template"
            options={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          />
        </Field>
      </SharedFields>
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
        {errors.memberIds?.message ? <p className="text-sm text-danger">{errors.memberIds.message}</p> : null}
      </fieldset>
    </>
  );
}

/** Name, dates, owner and budget; a new project's service and template go beside its dates. */
function SharedFields({
  form,
  members,
  budgetHint,
  isNew,
  children,
}: {
  form: TRecordForm<TSharedInput, unknown>;
  members: TMember[];
  budgetHint: string;
  isNew?: boolean;
  children?: ReactNode;
}) {
  const errors = form.formState.errors;
  return (
    <>
      <Field label="Name" error={errors.name?.message} required>
        <Input
          autoFocus={isNew}
          placeholder={isNew ? 'Statutory audit 2026' : undefined}
          {...form.register('name')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {children}
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
        <Field label="Hours budget" hint={budgetHint} error={errors.budgetMinutes?.message}>
          <Input inputMode="decimal" {...form.register('budgetMinutes')} />
        </Field>
      </div>
    </>
  );
}
