import { BUDGET_HELP } from '@domain/budgets';
import { STATUS_DISPLAY, STORED_STATUSES } from '@domain/status';
import {
  PRIORITY_LABELS,
  TASK_PRIORITIES,
  type TTaskFormInput,
  type TTaskInput,
  ZTaskInput,
} from '@domain/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  DatePicker,
  Field,
  FormSelect,
  Input,
  RecordDialog,
  Switch,
  Textarea,
  type TRecordForm,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { AssigneePicker } from './task-assignee-picker';
import { parseTags } from './task-format';
import { useTasksRefresh } from './use-tasks';

const EMPTY: TTaskFormInput = {
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
};

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
  const refresh = useTasksRefresh();
  const create = useMutation(trpc.tasks.create.mutationOptions());
  return (
    <RecordDialog
      size="lg"
      open={open}
      onOpenChange={onOpenChange}
      schema={ZTaskInput}
      values={{ ...EMPTY, ...defaults }}
      submit={create.mutateAsync}
      onSaved={async (created) => {
        toast.success('Task created');
        await refresh();
        onCreated(created.id);
      }}
      title="New task"
      submitLabel="Create task"
    >
      {(form) => <TaskFields form={form} initialTags={(defaults.tags ?? []).join(', ')} />}
    </RecordDialog>
  );
}

function TaskFields({
  form,
  initialTags,
}: {
  form: TRecordForm<TTaskFormInput, TTaskInput>;
  initialTags: string;
}) {
  const canViewClients = useCan('clients.view');
  const options = useQuery(trpc.tasks.options.queryOptions());
  const clients = useQuery({
    ...trpc.clients.list.queryOptions({ pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: canViewClients,
  });
  const { errors } = form.formState;
  const clientId = form.watch('clientId');
  const dueDate = form.watch('dueDate');
  const projects = useQuery({
    ...trpc.tasks.projects.queryOptions({ clientId: clientId ?? '' }),
    enabled: Boolean(clientId),
  });
  const [tagText, setTagText] = useState(initialTags);
  const [checklistText, setChecklistText] = useState('');
  const members = options.data?.members ?? [];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Title" required error={errors.title?.message} className="sm:col-span-2">
        <Input {...form.register('title')} autoFocus maxLength={300} />
      </Field>
      <Field label="Client" error={errors.clientId?.message}>
        <FormSelect
          control={form.control}
          name="clientId"
          none="No client (internal)"
          onChosen={() => form.setValue('projectId', null)}
          disabled={!canViewClients}
          options={(clients.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
      </Field>
      <Field label="Project" error={errors.projectId?.message}>
        <FormSelect
          control={form.control}
          name="projectId"
          none="No project"
          disabled={!clientId}
          options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Field>
      <Field label="Status" error={errors.status?.message}>
        <FormSelect
          control={form.control}
          name="status"
          options={STORED_STATUSES.map((s) => ({ value: s, label: STATUS_DISPLAY[s].label }))}
        />
      </Field>
      <Field label="Priority" error={errors.priority?.message}>
        <FormSelect
          control={form.control}
          name="priority"
          options={TASK_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
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
        <FormSelect
          control={form.control}
          name="reviewerId"
          none="No reviewer"
          options={members.map((m) => ({ value: m.id, label: m.name }))}
        />
      </Field>
      <Field label="Tags" hint="Separate with commas" error={errors.tags?.message}>
        <Input
          value={tagText}
          onChange={(e) => {
            setTagText(e.target.value);
            form.setValue('tags', parseTags(e.target.value), { shouldDirty: true });
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
              { shouldDirty: true },
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
    </div>
  );
}
