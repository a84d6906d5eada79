import { BUDGET_HELP, budgetText } from '@domain/budgets';
import { type TTemplateInput, ZTemplateInput } from '@domain/project-templates';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import {
  Badge,
  Button,
  CellText,
  DataTable,
  type DataTableColumn,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Select,
  Textarea,
  toast,
} from '@web/ui';
import { LayoutTemplate, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';

const route = getRouteApi('/_main/admin/templates/projects/');

type TRow = {
  id: string;
  name: string;
  description: string | null;
  archivedAt: Date | null;
  taskCount: number;
  serviceCount: number;
};

/** /admin/templates/projects: the firm's project templates. */
export function TemplatesPage() {
  return (
    <RequirePermission permission="templates.view">
      <TemplatesScreen />
    </RequirePermission>
  );
}

function TemplatesScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = useNavigate();
  const canCreate = useCan('templates.create');
  const [creating, setCreating] = useState(false);
  const archived = search.archived === true;
  const list = useQuery(trpc.projectTemplates.list.queryOptions({ archived }));
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Name',
      minWidth: 12,
      cell: (r) => (
        <>
          <CellText className="font-medium text-fg">{r.name}</CellText>
          {r.description ? <CellText className="text-xs text-muted-fg">{r.description}</CellText> : null}
        </>
      ),
    },
    { id: 'tasks', header: 'Tasks', className: 'text-right tabular-nums', cell: (r) => r.taskCount },
    {
      id: 'services',
      header: 'Services using it',
      cell: (r) =>
        r.serviceCount ? (
          <Badge tone="blue">{r.serviceCount}</Badge>
        ) : (
          <span className="text-muted-fg">None</span>
        ),
    },
  ];
  const rows = list.data ?? [];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Project templates"
        description="The tasks a project starts with. Link a template to a service and every engagement gets a project per period."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Project templates' }]}
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New template
            </Button>
          ) : null
        }
      />
      <TemplateDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(id) => go({ to: '/admin/templates/projects/$id', params: { id } })}
      />
      <DataTable
        label="Project templates"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.name}
        total={rows.length}
        page={1}
        pageSize={Math.max(rows.length, 1)}
        onPageChange={() => {}}
        loading={list.isPending}
        rowLink={(r) => ({ to: '/admin/templates/projects/$id', params: { id: r.id } })}
        toolbar={
          <Select
            aria-label="Show"
            className="w-44"
            value={archived ? 'archived' : 'live'}
            onValueChange={(v) =>
              navigate({ search: (prev) => ({ ...prev, archived: v === 'archived' ? true : undefined }) })
            }
            options={[
              { value: 'live', label: 'In use' },
              { value: 'archived', label: 'Archived' },
            ]}
          />
        }
        empty={
          <EmptyState
            icon={LayoutTemplate}
            title={archived ? 'No archived templates' : 'No project templates yet'}
            message="A template lists the tasks of a piece of work, e.g. a monthly GST return."
            action={
              canCreate && !archived ? (
                <Button onClick={() => setCreating(true)}>New template</Button>
              ) : undefined
            }
          />
        }
      />
    </div>
  );
}

/** Creates a template, or renames the one given. */
export function TemplateDialog({
  open,
  onOpenChange,
  template,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  template?: { id: string; name: string; description: string | null; budgetMinutes: number | null } | null;
  onCreated?: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<TTemplateInput, unknown, z.output<typeof ZTemplateInput>>({
    resolver: zodResolver(ZTemplateInput),
    defaultValues: { name: '', description: '', budgetMinutes: '' },
  });
  useEffect(() => {
    if (open)
      form.reset({
        name: template?.name ?? '',
        description: template?.description ?? '',
        budgetMinutes: budgetText(template?.budgetMinutes),
      });
  }, [open, template, form]);
  const done = async (message: string) => {
    toast.success(message);
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: trpc.projectTemplates.pathKey() });
  };
  const create = useMutation(
    trpc.projectTemplates.create.mutationOptions({
      onSuccess: async ({ id }) => {
        await done(`Added the template ${form.getValues('name').trim()}`);
        onCreated?.(id);
      },
    }),
  );
  const update = useMutation(
    trpc.projectTemplates.update.mutationOptions({ onSuccess: () => done('Template saved') }),
  );
  const errors = form.formState.errors;
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={template ? 'Edit template' : 'New project template'}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="template-form" loading={create.isPending || update.isPending}>
              {template ? 'Save' : 'Create template'}
            </Button>
          </>
        }
      >
        <form
          id="template-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) =>
            template ? update.mutate({ templateId: template.id, ...values }) : create.mutate(values),
          )}
        >
          <Field label="Name" error={errors.name?.message} required>
            <Input autoFocus placeholder="Monthly GST return" {...form.register('name')} />
          </Field>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={3} {...form.register('description')} />
          </Field>
          <Field
            label="Hours budget"
            hint={`${BUDGET_HELP}; its projects start with it`}
            error={errors.budgetMinutes?.message}
          >
            <Input inputMode="decimal" {...form.register('budgetMinutes')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
