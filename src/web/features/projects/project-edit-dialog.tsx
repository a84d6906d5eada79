import { BUDGET_HELP, budgetText } from '@domain/budgets';
import { ZProjectUpdate } from '@domain/projects';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Textarea,
  toast,
} from '@web/ui';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { OwnerSelect } from './owner-select';
import type { TProjectDetail } from './project-page';
import { useProjectsRefresh } from './use-project-actions';

/** Edits a project's name, description, dates, owner and hours budget. */
export function ProjectEditDialog({
  open,
  onOpenChange,
  project,
  members,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: TProjectDetail;
  members: { id: string; name: string }[];
}) {
  const refresh = useProjectsRefresh();
  const form = useForm<z.input<typeof ZProjectUpdate>, unknown, z.output<typeof ZProjectUpdate>>({
    resolver: zodResolver(ZProjectUpdate),
  });
  useEffect(() => {
    if (open) {
      form.reset({
        projectId: project.id,
        name: project.name,
        description: project.description ?? '',
        startDate: project.startDate,
        dueDate: project.dueDate,
        ownerId: project.ownerId,
        budgetMinutes: budgetText(project.budgetMinutes),
      });
    }
  }, [open, project, form]);
  const update = useMutation(
    trpc.projects.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Project saved');
        onOpenChange(false);
        await refresh();
      },
    }),
  );
  const errors = form.formState.errors;
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit project"
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="project-edit-form" loading={update.isPending}>
              Save
            </Button>
          </>
        }
      >
        <form
          id="project-edit-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => update.mutate(values))}
        >
          <Field label="Name" error={errors.name?.message} required>
            <Input {...form.register('name')} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
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
            <Field label="Hours budget" hint={BUDGET_HELP} error={errors.budgetMinutes?.message}>
              <Input inputMode="decimal" {...form.register('budgetMinutes')} />
            </Field>
          </div>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={3} {...form.register('description')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
