import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { PRIORITY_LABELS, TASK_PRIORITIES, type TTaskPriority, type TTaskUpdate } from '@domain/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  confirm,
  DatePicker,
  Drawer,
  DrawerContent,
  Field,
  Input,
  Select,
  Spinner,
  StatusBadge,
  Switch,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { TaskRequestLink } from '../requests/flow/task-request-link';
import { useCan } from '../shell/access';
import { StartTimerButton } from '../timesheets/start-timer-button';
import { TaskRateField } from '../timesheets/task-rate-field';
import { AssigneePicker } from './task-assignee-picker';
import { TaskAttachments } from './task-attachments';
import { TaskBudget } from './task-budget';
import { TaskChecklist } from './task-checklist';
import { TaskComments } from './task-comments';
import { parseTags } from './task-format';
import { type TTaskDetail, useTasksRefresh } from './use-tasks';

const NONE = 'none';

/** The task opened by `?task={id}`: every field edits in place and saves on its own. */
export function TaskDrawer({ taskId, onClose }: { taskId: string | undefined; onClose: () => void }) {
  const task = useQuery({
    ...trpc.tasks.get.queryOptions({ taskId: taskId ?? '' }),
    enabled: Boolean(taskId),
  });
  return (
    <Drawer open={Boolean(taskId)} onOpenChange={(open) => (open ? null : onClose())}>
      <DrawerContent
        size="lg"
        title={task.data?.title ?? (task.isError ? 'Task not found' : 'Task')}
        onEscapeKeyDown={(event) => {
          // Escape in the comment box with the @-picker open closes the picker, not the drawer.
          if ((event.target as HTMLElement | null)?.dataset?.mentionOpen === 'true') event.preventDefault();
        }}
      >
        {task.data ? (
          <TaskDetail key={task.data.id} task={task.data} onDeleted={onClose} />
        ) : task.isError ? (
          <p className="text-muted-fg">This task does not exist, or it is not one you can see.</p>
        ) : (
          <div className="grid place-items-center p-10">
            <Spinner />
          </div>
        )}
      </DrawerContent>
    </Drawer>
  );
}

function TaskDetail({ task, onDeleted }: { task: TTaskDetail; onDeleted: () => void }) {
  const canEdit = useCan('tasks.edit');
  const canDelete = useCan('tasks.delete');
  const canViewClients = useCan('clients.view');
  const format = useFormat();
  const refresh = useTasksRefresh();
  const options = useQuery(trpc.tasks.options.queryOptions());
  const clients = useQuery({
    ...trpc.clients.list.queryOptions({ pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: canEdit && canViewClients,
  });
  const projects = useQuery({
    ...trpc.tasks.projects.queryOptions({ clientId: task.client?.id ?? '' }),
    enabled: Boolean(task.client),
  });
  const update = useMutation(trpc.tasks.update.mutationOptions({ onSuccess: () => refresh() }));
  const setStatus = useMutation(
    trpc.tasks.setStatus.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Moved to ${STATUS_DISPLAY[r.status].label}`);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.tasks.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Task deleted');
        onDeleted();
        await refresh();
      },
    }),
  );
  const patch = (p: TTaskUpdate['patch']) => update.mutate({ taskId: task.id, patch: p });

  const [title, setTitle] = useState(task.title);
  const [description, setDescription] = useState(task.description ?? '');
  const [tags, setTags] = useState(task.tags.join(', '));
  useEffect(() => setTitle(task.title), [task.title]);
  useEffect(() => setDescription(task.description ?? ''), [task.description]);
  useEffect(() => setTags(task.tags.join(', ')), [task.tags]);

  const members = options.data?.members ?? [];
  const assigneeIds = task.assignees.map((a) => a.id);
  const clientOptions = [
    { value: NONE, label: 'No client (internal)' },
    ...(task.client && !clients.data?.rows.some((c) => c.id === task.client?.id)
      ? [{ value: task.client.id, label: task.client.name }]
      : []),
    ...(clients.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name })),
  ];

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={task.displayStatus} />
        {task.forClient ? <Badge tone="primary">For the client</Badge> : null}
        {task.completedDate ? (
          <span className="text-xs text-muted-fg">Completed {format.date(task.completedDate)}</span>
        ) : null}
        {task.client ? (
          <Link
            to="/clients/$id"
            params={{ id: task.client.id }}
            className="text-xs text-primary hover:underline"
          >
            {task.client.name}
          </Link>
        ) : null}
      </div>
      {task.forClient ? <TaskRequestLink taskId={task.id} /> : null}

      <Field label="Title">
        <Input
          value={title}
          disabled={!canEdit}
          maxLength={300}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => {
            if (title.trim() && title.trim() !== task.title) patch({ title: title.trim() });
            else setTitle(task.title);
          }}
        />
      </Field>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Status">
          <Select
            value={task.status}
            disabled={!canEdit || setStatus.isPending}
            onValueChange={(v) => setStatus.mutate({ taskId: task.id, status: v as TStoredStatus })}
            options={STORED_STATUSES.map((s) => ({ value: s, label: STATUS_DISPLAY[s].label }))}
          />
        </Field>
        <Field label="Priority">
          <Select
            value={task.priority}
            disabled={!canEdit}
            onValueChange={(v) => patch({ priority: v as TTaskPriority })}
            options={TASK_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
          />
        </Field>
        <Field label="Due date">
          <DatePicker value={task.dueDate} disabled={!canEdit} onChange={(v) => patch({ dueDate: v })} />
        </Field>
        <Field label="Assignees">
          <AssigneePicker
            members={members}
            names={task.assignees}
            value={assigneeIds}
            onChange={(ids) => patch({ assigneeIds: ids })}
            dueDate={task.dueDate}
            disabled={!canEdit}
          />
        </Field>
        <Field label="Reviewer">
          <Select
            value={task.reviewer?.id ?? NONE}
            disabled={!canEdit}
            onValueChange={(v) => patch({ reviewerId: v === NONE ? null : v })}
            options={[
              { value: NONE, label: 'No reviewer' },
              ...(task.reviewer && !members.some((m) => m.id === task.reviewer?.id)
                ? [{ value: task.reviewer.id, label: task.reviewer.name }]
                : []),
              ...members.map((m) => ({ value: m.id, label: m.name })),
            ]}
          />
        </Field>
        <Field label="Client">
          <Select
            value={task.client?.id ?? NONE}
            disabled={!canEdit || !canViewClients}
            onValueChange={(v) => patch({ clientId: v === NONE ? null : v })}
            options={clientOptions}
          />
        </Field>
        <Field label="Project" hint={task.client ? undefined : 'Choose a client first'}>
          <Select
            value={task.project?.id ?? NONE}
            disabled={!canEdit || !task.client}
            onValueChange={(v) => patch({ projectId: v === NONE ? null : v })}
            options={[
              { value: NONE, label: 'No project' },
              ...(task.project && !projects.data?.some((p) => p.id === task.project?.id)
                ? [{ value: task.project.id, label: task.project.name }]
                : []),
              ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name })),
            ]}
          />
        </Field>
        <Field label="Tags" hint="Separate with commas">
          <Input
            value={tags}
            disabled={!canEdit}
            onChange={(e) => setTags(e.target.value)}
            onBlur={() => {
              const next = parseTags(tags);
              if (next.join(',') !== task.tags.join(',')) patch({ tags: next });
            }}
          />
        </Field>
        <TaskBudget task={task} canEdit={canEdit} onSave={(budgetMinutes) => patch({ budgetMinutes })} />
        <TaskRateField taskId={task.id} />
      </div>
      <Switch
        label="The client does this task (shown in the portal)"
        checked={task.forClient}
        disabled={!canEdit || !task.client}
        onCheckedChange={(on) => patch({ forClient: on })}
      />
      <Field label="Description">
        <Textarea
          rows={4}
          value={description}
          disabled={!canEdit}
          onChange={(e) => setDescription(e.target.value)}
          onBlur={() => {
            if (description.trim() !== (task.description ?? '')) patch({ description: description.trim() });
          }}
        />
      </Field>

      <TaskChecklist task={task} canEdit={canEdit} />
      <TaskAttachments taskId={task.id} clientName={task.client?.name ?? null} canEdit={canEdit} />
      <TaskComments taskId={task.id} canEdit={canEdit} />

      <footer className="flex items-center justify-between gap-2 border-t border-border pt-3 text-xs text-muted-fg">
        <span>
          Created {format.date(task.createdAt)}
          {task.createdBy ? ` by ${task.createdBy.name}` : ''}
        </span>
        <StartTimerButton taskId={task.id} />
        {canDelete ? (
          <Button
            variant="outline"
            size="sm"
            onClick={async () => {
              if (
                await confirm({
                  title: 'Delete this task?',
                  message: `“${task.title}”, its checklist and its comments will be deleted. This cannot be undone.`,
                  confirmLabel: 'Delete task',
                  danger: true,
                })
              ) {
                remove.mutate({ taskId: task.id });
              }
            }}
          >
            <Trash2 aria-hidden />
            Delete
          </Button>
        ) : null}
      </footer>
    </div>
  );
}
