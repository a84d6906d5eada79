import { BUDGET_HELP, budgetText } from '@domain/budgets';
import {
  offsetLabel,
  type TBlueprintFormInput,
  type TBlueprintFormValues,
  ZBlueprintForm,
} from '@domain/project-templates';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  Textarea,
  toast,
} from '@web/ui';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';

export type TBlueprint = {
  id: string;
  title: string;
  description: string | null;
  dueOffsetDays: number;
  assigneeRoleId: string | null;
  assigneeMemberId: string | null;
  checklist: string[];
  forClient: boolean;
  tags: string[];
  budgetMinutes: number | null;
  stageId: string | null;
};

/** The Select's value for "no stage" (a Select item cannot have an empty value). */
const NO_STAGE = 'none';

const EMPTY: TBlueprintFormInput = {
  title: '',
  description: '',
  dueOffsetDays: 0,
  assigneeKind: 'engagement',
  assigneeRoleId: null,
  assigneeMemberId: null,
  checklist: '',
  forClient: false,
  tags: '',
  budgetMinutes: '',
  stageId: null,
};

const fromBlueprint = (b: TBlueprint): TBlueprintFormInput => ({
  title: b.title,
  description: b.description ?? '',
  dueOffsetDays: b.dueOffsetDays,
  assigneeKind: b.assigneeMemberId ? 'member' : b.assigneeRoleId ? 'role' : 'engagement',
  assigneeRoleId: b.assigneeRoleId,
  assigneeMemberId: b.assigneeMemberId,
  checklist: b.checklist.join('\n'),
  forClient: b.forClient,
  tags: b.tags.join(', '),
  budgetMinutes: budgetText(b.budgetMinutes),
  stageId: b.stageId,
});

/** Adds a task blueprint to a template, or edits the one given. */
export function BlueprintDialog({
  open,
  onOpenChange,
  templateId,
  blueprint,
  roles,
  members,
  stages,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  templateId: string;
  blueprint: TBlueprint | null;
  roles: { id: string; name: string }[];
  members: { id: string; name: string }[];
  stages: { id: string; name: string }[];
}) {
  const queryClient = useQueryClient();
  const form = useForm<TBlueprintFormInput, unknown, TBlueprintFormValues>({
    resolver: zodResolver(ZBlueprintForm),
    defaultValues: EMPTY,
  });
  useEffect(() => {
    if (open) form.reset(blueprint ? fromBlueprint(blueprint) : EMPTY);
  }, [open, blueprint, form]);
  const done = async (message: string) => {
    toast.success(message);
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: trpc.projectTemplates.pathKey() });
  };
  const add = useMutation(
    trpc.projectTemplates.blueprints.add.mutationOptions({ onSuccess: () => done('Task added') }),
  );
  const update = useMutation(
    trpc.projectTemplates.blueprints.update.mutationOptions({ onSuccess: () => done('Task saved') }),
  );
  const errors = form.formState.errors;
  const kind = form.watch('assigneeKind');
  const offset = Number(form.watch('dueOffsetDays'));
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={blueprint ? 'Edit task' : 'Add a task'}
        description="Each project made from this template starts with this task."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="blueprint-form" loading={add.isPending || update.isPending}>
              {blueprint ? 'Save task' : 'Add task'}
            </Button>
          </>
        }
      >
        <form
          id="blueprint-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) =>
            blueprint
              ? update.mutate({ blueprintId: blueprint.id, ...values })
              : add.mutate({ templateId, ...values }),
          )}
        >
          <Field label="Title" error={errors.title?.message} required>
            <Input autoFocus placeholder="Collect purchase invoices" {...form.register('title')} />
          </Field>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={2} {...form.register('description')} />
          </Field>
          <Field
            label="Due, in days from the end of the period"
            hint={Number.isInteger(offset) ? offsetLabel(offset) : 'A whole number; negative means before'}
            error={errors.dueOffsetDays?.message}
            required
          >
            <Input
              type="number"
              min={-366}
              max={366}
              {...form.register('dueOffsetDays', { valueAsNumber: true })}
            />
          </Field>
          <Field label="Hours budget" hint={BUDGET_HELP} error={errors.budgetMinutes?.message}>
            <Input inputMode="decimal" {...form.register('budgetMinutes')} />
          </Field>
          <Field label="Assign to" error={errors.assigneeKind?.message} required>
            <Controller
              control={form.control}
              name="assigneeKind"
              render={({ field }) => (
                <Select
                  name={field.name}
                  onBlur={field.onBlur}
                  value={field.value ?? 'engagement'}
                  onValueChange={field.onChange}
                  options={[
                    { value: 'engagement', label: "The engagement's assignees" },
                    { value: 'role', label: 'Assignees holding a role' },
                    { value: 'member', label: 'A member' },
                  ]}
                />
              )}
            />
          </Field>
          {kind === 'role' ? (
            <Field
              label="Role"
              hint="Falls back to every assignee when none holds it"
              error={errors.assigneeRoleId?.message}
              required
            >
              <Controller
                control={form.control}
                name="assigneeRoleId"
                render={({ field }) => (
                  <Select
                    name={field.name}
                    onBlur={field.onBlur}
                    value={field.value ?? undefined}
                    onValueChange={field.onChange}
                    placeholder="Choose a role"
                    options={roles.map((r) => ({ value: r.id, label: r.name }))}
                  />
                )}
              />
            </Field>
          ) : null}
          {kind === 'member' ? (
            <Field label="Member" error={errors.assigneeMemberId?.message} required>
              <Controller
                control={form.control}
                name="assigneeMemberId"
                render={({ field }) => (
                  <Select
                    name={field.name}
                    onBlur={field.onBlur}
                    value={field.value ?? undefined}
                    onValueChange={field.onChange}
                    placeholder="Choose a member"
                    options={members.map((m) => ({ value: m.id, label: m.name }))}
                  />
                )}
              />
            </Field>
          ) : null}
          {stages.length ? (
            <Field
              label="Stage"
              hint="When every task of a stage is done, a rule can move the project on"
              error={errors.stageId?.message}
            >
              <Controller
                control={form.control}
                name="stageId"
                render={({ field }) => (
                  <Select
                    name={field.name}
                    onBlur={field.onBlur}
                    value={field.value ?? NO_STAGE}
                    onValueChange={(v) => field.onChange(v === NO_STAGE ? null : v)}
                    options={[
                      { value: NO_STAGE, label: 'No stage' },
                      ...stages.map((st) => ({ value: st.id, label: st.name })),
                    ]}
                  />
                )}
              />
            </Field>
          ) : null}
          <Field label="Checklist" hint="One item a line" error={errors.checklist?.message}>
            <Textarea rows={3} {...form.register('checklist')} />
          </Field>
          <Field label="Tags" hint="Separated by commas" error={errors.tags?.message}>
            <Input placeholder="gst, docs" {...form.register('tags')} />
          </Field>
          <Controller
            control={form.control}
            name="forClient"
            render={({ field }) => (
              <Checkbox
                label="The client does this task (shown in their portal)"
                checked={!!field.value}
                onCheckedChange={(on) => field.onChange(on === true)}
              />
            )}
          />
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
