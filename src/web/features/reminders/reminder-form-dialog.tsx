import {
  CHANNEL_LABELS,
  RECURRENCE_LABELS,
  REMINDER_CHANNELS,
  REMINDER_RECURRENCES,
  REMINDER_TYPE_LABELS,
  type TReminderChannel,
  type TReminderFormValues,
  type TReminderInput,
  type TReminderType,
  ZReminderInput,
} from '@domain/reminders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Checkbox,
  DatePicker,
  DateTimePicker,
  Field,
  FormSelect,
  Input,
  RecordDialog,
  Textarea,
  type TRecordForm,
  toast,
} from '@web/ui';
import { Controller } from 'react-hook-form';
import { type AppRouter, trpc } from '../../lib/trpc';
import { ClientPicker } from './reminder-client-picker';

type TReminderDetail = inferRouterOutputs<AppRouter>['reminders']['get'];

function emptyValues(type: TReminderType): TReminderFormValues {
  const now = new Date();
  now.setSeconds(0, 0);
  return {
    type,
    title: '',
    message: '',
    clientId: null,
    projectId: null,
    taskId: null,
    remindAt: now,
    recurrence: 'none',
    channels: type === 'client' ? ['email'] : ['email', 'in_app'],
    memberIds: [],
    itemName: null,
    expiryDate: null,
    daysBefore: type === 'expiry' ? 30 : null,
  };
}

const fromDetail = (r: TReminderDetail): TReminderFormValues => ({
  type: r.type,
  title: r.title,
  message: r.message,
  clientId: r.clientId,
  projectId: r.projectId,
  taskId: r.taskId,
  remindAt: r.remindAt,
  recurrence: r.recurrence,
  channels: r.channels,
  memberIds: r.members.map((m) => m.id),
  itemName: r.itemName,
  expiryDate: r.expiryDate,
  daysBefore: r.daysBefore,
});

/** Creates a reminder of the screen's type, or edits one; the server checks the same schema. */
export function ReminderFormDialog({
  open,
  onOpenChange,
  type,
  reminder,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  type: TReminderType;
  reminder: TReminderDetail | null;
}) {
  const queryClient = useQueryClient();
  const create = useMutation(trpc.reminders.create.mutationOptions());
  const update = useMutation(trpc.reminders.update.mutationOptions());
  return (
    <RecordDialog
      size="lg"
      open={open}
      onOpenChange={onOpenChange}
      schema={ZReminderInput}
      values={reminder ? fromDetail(reminder) : emptyValues(type)}
      submit={async (values) =>
        reminder ? update.mutateAsync({ id: reminder.id, data: values }) : create.mutateAsync(values)
      }
      onSaved={async () => {
        toast.success(reminder ? 'Reminder saved' : 'Reminder scheduled');
        await queryClient.invalidateQueries({ queryKey: trpc.reminders.pathKey() });
      }}
      title={
        reminder ? `Edit ${reminder.title}` : `New ${REMINDER_TYPE_LABELS[type].label.toLowerCase()} reminder`
      }
      description={REMINDER_TYPE_LABELS[type].description}
      submitLabel={reminder ? 'Save reminder' : 'Schedule reminder'}
    >
      {(form) => <ReminderFields form={form} type={type} reminder={reminder} />}
    </RecordDialog>
  );
}

function ReminderFields({
  form,
  type,
  reminder,
}: {
  form: TRecordForm<TReminderFormValues, TReminderInput>;
  type: TReminderType;
  reminder: TReminderDetail | null;
}) {
  const errors = form.formState.errors;
  const clientId = form.watch('clientId');
  const projectId = form.watch('projectId');
  const links = useQuery({
    ...trpc.reminders.linkOptions.queryOptions({ clientId: clientId ?? undefined }),
    enabled: !!clientId,
  });
  const people = useQuery({ ...trpc.reminders.memberOptions.queryOptions(), enabled: type !== 'client' });
  const tasks = (links.data?.tasks ?? []).filter((t) => !projectId || t.projectId === projectId);
  return (
    <>
      <Field label="Title" error={errors.title?.message} required>
        <Input autoFocus placeholder="Documents pending for the March return" {...form.register('title')} />
      </Field>
      <Field
        label="Client"
        error={errors.clientId?.message}
        required={type !== 'team'}
        hint={type === 'team' ? 'Optional: the client this is about' : undefined}
      >
        <Controller
          control={form.control}
          name="clientId"
          render={({ field }) => (
            <ClientPicker
              value={field.value ?? null}
              initial={reminder?.client ?? null}
              onChange={(v) => {
                field.onChange(v);
                form.setValue('projectId', null);
                form.setValue('taskId', null);
              }}
            />
          )}
        />
      </Field>
      {clientId ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Project" error={errors.projectId?.message}>
            <FormSelect
              control={form.control}
              name="projectId"
              none="No project"
              onChosen={() => form.setValue('taskId', null)}
              options={(links.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
            />
          </Field>
          <Field label="Task" error={errors.taskId?.message}>
            <FormSelect
              control={form.control}
              name="taskId"
              none="No task"
              options={tasks.map((t) => ({ value: t.id, label: t.title }))}
            />
          </Field>
        </div>
      ) : null}
      {type === 'expiry' ? (
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="What expires" error={errors.itemName?.message} required className="sm:col-span-3">
            <Input placeholder="Digital signature certificate" {...form.register('itemName')} />
          </Field>
          <Field label="Expiry date" error={errors.expiryDate?.message} required className="sm:col-span-2">
            <Controller
              control={form.control}
              name="expiryDate"
              render={({ field }) => <DatePicker {...field} value={field.value ?? null} clearable={false} />}
            />
          </Field>
          <Field label="Days before" error={errors.daysBefore?.message} required hint="Sent at 09:00">
            <Input
              type="number"
              min={0}
              max={3650}
              {...form.register('daysBefore', {
                setValueAs: (v) => (v === '' || v === null ? null : Number(v)),
              })}
            />
          </Field>
        </div>
      ) : (
        <Field label="Send at" error={errors.remindAt?.message} required>
          <Controller
            control={form.control}
            name="remindAt"
            render={({ field }) => (
              <DateTimePicker value={field.value ?? null} onChange={field.onChange} clearable={false} />
            )}
          />
        </Field>
      )}
      <Field label="Repeats" error={errors.recurrence?.message}>
        <FormSelect
          control={form.control}
          name="recurrence"
          options={REMINDER_RECURRENCES.map((r) => ({ value: r, label: RECURRENCE_LABELS[r] }))}
        />
      </Field>
      {type !== 'client' ? (
        <Field
          label={type === 'expiry' ? 'Responsible members' : 'Members'}
          error={errors.memberIds?.message}
          required={type === 'team'}
        >
          <Controller
            control={form.control}
            name="memberIds"
            render={({ field }) => {
              const chosen = field.value ?? [];
              return (
                <div className="flex max-h-40 flex-col gap-1.5 overflow-y-auto rounded-md border border-border p-2">
                  {(people.data ?? []).map((m) => (
                    <Checkbox
                      key={m.id}
                      label={`${m.name} · ${m.email}`}
                      checked={chosen.includes(m.id)}
                      onCheckedChange={(on) =>
                        field.onChange(on ? [...chosen, m.id] : chosen.filter((x) => x !== m.id))
                      }
                    />
                  ))}
                  {people.isPending ? <span className="text-muted-fg">Loading members…</span> : null}
                </div>
              );
            }}
          />
        </Field>
      ) : null}
      <Field label="Channels" error={errors.channels?.message}>
        <Controller
          control={form.control}
          name="channels"
          render={({ field }) => {
            const chosen = field.value ?? [];
            const toggle = (c: TReminderChannel, on: boolean) =>
              field.onChange(on ? [...chosen, c] : chosen.filter((x) => x !== c));
            return (
              <div className="flex gap-4">
                {REMINDER_CHANNELS.map((c) => (
                  <Checkbox
                    key={c}
                    label={CHANNEL_LABELS[c]}
                    checked={chosen.includes(c)}
                    disabled={type === 'client'}
                    onCheckedChange={(on) => toggle(c, on === true)}
                  />
                ))}
              </div>
            );
          }}
        />
      </Field>
      <Field label="Message" error={errors.message?.message}>
        <Textarea rows={4} placeholder="What the reminder says" {...form.register('message')} />
      </Field>
    </>
  );
}
