import { BUDGET_HELP } from '@domain/budgets';
import { STATUS_DISPLAY, STORED_STATUSES } from '@domain/status';
import {
  PRIORITY_LABELS,
  TASK_PRIORITIES,
  type TTaskFormInput,
  type TTaskInput,
  ZTaskInput,
} from '@domain/tasks';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  Switch,
  Textarea,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { AssigneePicker } from './task-assignee-picker';
import { parseTags } from './task-format';
import { useTasksRefresh } from './use-tasks';

const NONE = 'none';

/** The full form: every field of a task; the same schema as the server's. */
export function TaskCreateDialog({
  open,
  onOpenChange,
  defaults,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaults: Partial<TTaskFormInput>;
  onCreated: (id: string) => void;
}) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      {open ? (
        <CreateForm defaults={defaults} onCreated={onCreated} onCancel={() => onOpenChange(false)} />
      ) : null}
    </DialogRoot>
  );
}

function CreateForm({
  defaults,
  onCreated,
  onCancel,
}: {
  defaults: Partial<TTaskFormInput>;
  onCreated: (id: string) => void;
  onCancel: () => void;
}) {
  const refresh = useTasksRefresh();
  const canViewClients = useCan('clients.view');
  const options = useQuery(trpc.tasks.options.queryOptions());
  const clients = useQuery({
    ...trpc.clients.list.queryOptions({ pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: canViewClients,
  });
  const form = useForm<TTaskFormInput, unknown, TTaskInput>({
    resolver: zodResolver(ZTaskInput),
    defaultValues: {
      title: '',
      description: '',
      clientId: null,
      projectId: null,
      status: 'SCHEDULED',
      priority: 'medium',
      dueDate: null,
      assigneeIds: [],
      reviewerId: null,
      tags: [],
      checklist: [],
      forClient: false,
      budgetMinutes: '',
      ...defaults,
    },
  });
  const { errors } = form.formState;
  const clientId = form.watch('clientId');
  const dueDate = form.watch('dueDate');
  const projects = useQuery({
    ...trpc.tasks.projects.queryOptions({ clientId: clientId ?? '' }),
    enabled: Boolean(clientId),
  });
  const [tagText, setTagText] = useState((defaults.tags ?? []).join(', '));
  const [checklistText, setChecklistText] = useState('');
  const create = useMutation(
    trpc.tasks.create.mutationOptions({
      onSuccess: async (created) => {
        toast.success('Task created');
        await refresh();
        onCreated(created.id);
      },
    }),
  );
  const members = options.data?.members ?? [];
  const submit = form.handleSubmit((values) => create.mutate(values));

  return (
    <DialogContent
      size="lg"
      title="New task"
      footer={
        <>
          <DialogClose asChild>
            <Button variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" form="task-create-form" disabled={create.isPending}>
            Create task
          </Button>
        </>
      }
    >
      <form id="task-create-form" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
        <Field label="Title" required error={errors.title?.message} className="sm:col-span-2">
          <Input {...form.register('title')} autoFocus maxLength={300} />
        </Field>
        <Field label="Client" error={errors.clientId?.message}>
          <Controller
            control={form.control}
            name="clientId"
            render={({ field }) => (
              <Select
                value={field.value ?? NONE}
                onValueChange={(v) => {
                  field.onChange(v === NONE ? null : v);
                  form.setValue('projectId', null);
                }}
                disabled={!canViewClients}
                options={[
                  { value: NONE, label: 'No client (internal)' },
                  ...(clients.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name })),
                ]}
              />
            )}
          />
        </Field>
        <Field label="Project" error={errors.projectId?.message}>
          <Controller
            control={form.control}
            name="projectId"
            render={({ field }) => (
              <Select
                value={field.value ?? NONE}
                onValueChange={(v) => field.onChange(v === NONE ? null : v)}
                disabled={!clientId}
                options={[
                  { value: NONE, label: 'No project' },
                  ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name })),
                ]}
              />
            )}
          />
        </Field>
        <Field label="Status" error={errors.status?.message}>
          <Controller
            control={form.control}
            name="status"
            render={({ field }) => (
              <Select
                value={field.value}
                onValueChange={field.onChange}
                options={STORED_STATUSES.map((s) => ({ value: s, label: STATUS_DISPLAY[s].label }))}
              />
            )}
          />
        </Field>
        <Field label="Priority" error={errors.priority?.message}>
          <Controller
            control={form.control}
            name="priority"
            render={({ field }) => (
              <Select
                value={field.value}
                onValueChange={field.onChange}
                options={TASK_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
              />
            )}
          />
        </Field>
        <Field label="Due date" error={errors.dueDate?.message}>
          <Controller
            control={form.control}
            name="dueDate"
            render={({ field }) => <DatePicker {...field} value={field.value ?? null} />}
          />
        </Field>
        <Field label="Assignees" error={errors.assigneeIds?.message}>
          <Controller
            control={form.control}
            name="assigneeIds"
            render={({ field }) => (
              <AssigneePicker
                members={members}
                value={field.value ?? []}
                onChange={field.onChange}
                dueDate={dueDate ?? null}
              />
            )}
          />
        </Field>
        <Field label="Reviewer" error={errors.reviewerId?.message}>
          <Controller
            control={form.control}
            name="reviewerId"
            render={({ field }) => (
              <Select
                value={field.value ?? NONE}
                onValueChange={(v) => field.onChange(v === NONE ? null : v)}
                options={[
                  { value: NONE, label: 'No reviewer' },
                  ...members.map((m) => ({ value: m.id, label: m.name })),
                ]}
              />
            )}
          />
        </Field>
        <Field label="Tags" hint="Separate with commas" error={errors.tags?.message}>
          <Input
            value={tagText}
            onChange={(e) => {
              setTagText(e.target.value);
              form.setValue('tags', parseTags(e.target.value));
            }}
          />
        </Field>
        <Field label="Hours budget" hint={BUDGET_HELP} error={errors.budgetMinutes?.message}>
          <Input inputMode="decimal" {...form.register('budgetMinutes')} />
        </Field>
        <Field label="Description" error={errors.description?.message} className="sm:col-span-2">
          <Textarea rows={3} {...form.register('description')} />
        </Field>
        <Field
          label="Checklist"
          hint="One item per line"
          error={errors.checklist?.message}
          className="sm:col-span-2"
        >
          <Textarea
            rows={3}
            value={checklistText}
            onChange={(e) => {
              setChecklistText(e.target.value);
              form.setValue(
                'checklist',
                e.target.value
                  .split('\n')
                  .map((line) => line.trim())
                  .filter(Boolean)
                  .map((text) => ({ text, done: false })),
              );
            }}
          />
        </Field>
        <Controller
          control={form.control}
          name="forClient"
          render={({ field }) => (
            <Switch
              className="sm:col-span-2"
              label="The client does this task (shown in the portal)"
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
        {errors.forClient?.message ? <p className="text-sm text-danger">{errors.forClient.message}</p> : null}
      </form>
    </DialogContent>
  );
}
