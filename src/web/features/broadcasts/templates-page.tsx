import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Button,
  confirm,
  type DataTableColumn,
  DateText,
  EmptyState,
  IconButton,
  ListScreen,
  listPageParams,
  PageHeader,
  toast,
  useListUrl,
} from '@web/ui';
import { Mail, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { TemplateDialog, type TTemplate } from './template-dialog';

const route = getRouteApi('/_main/admin/templates/broadcasts');

/** /admin/templates/broadcasts: the firm's reusable broadcasts. */
export function BroadcastTemplatesPage() {
  return (
    <RequirePermission permission="templates.view">
      <TemplatesScreen />
    </RequirePermission>
  );
}

function TemplatesScreen() {
  const canCreate = useCan('templates.create');
  const canEdit = useCan('templates.edit');
  const canDelete = useCan('templates.delete');
  const url = useListUrl(route.useSearch());
  const query = listPageParams(url.search);
  const list = useQuery({
    ...trpc.broadcastTemplates.list.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<TTemplate | null>(null);
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.broadcastTemplates.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Template deleted');
        await queryClient.invalidateQueries({ queryKey: trpc.broadcastTemplates.pathKey() });
      },
    }),
  );
  const edit = (t: TTemplate | null) => {
    setEditing(t);
    setOpen(true);
  };
  type TRow = NonNullable<typeof list.data>['rows'][number];
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Template',
      truncate: true,
      minWidth: 12,
      cell: (t) => <span className="font-medium">{t.name}</span>,
    },
    {
      id: 'subject',
      header: 'Subject',
      truncate: true,
      cell: (t) => <span className="text-muted-fg">{t.subject}</span>,
    },
    {
      id: 'updated',
      header: 'Last changed',
      className: 'whitespace-nowrap',
      cell: (t) => <DateText value={t.updatedAt} />,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'w-20 text-right',
      cell: (t) =>
        canDelete ? (
          <IconButton
            aria-label={`Delete ${t.name}`}
            size="sm"
            className="relative z-10"
            onClick={async () => {
              if (await confirm({ title: `Delete ${t.name}?`, danger: true, confirmLabel: 'Delete' })) {
                remove.mutate({ id: t.id });
              }
            }}
          >
            <Trash2 />
          </IconButton>
        ) : null,
    },
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Broadcast templates"
        description="Subjects and messages to start a broadcast from, filled in for each client."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Broadcast templates' }]}
        actions={
          canCreate ? (
            <Button onClick={() => edit(null)}>
              <Plus aria-hidden />
              New template
            </Button>
          ) : null
        }
      />
      <TemplateDialog open={open} onOpenChange={setOpen} template={editing} />
      <ListScreen
        label="Broadcast templates"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(t) => t.id}
        onRowClick={canEdit ? (t) => edit(t) : undefined}
        empty={
          <EmptyState
            icon={Mail}
            title="No broadcast templates yet"
            message="Write a message once; each client gets it with their own name, dates and pending items."
            action={canCreate ? <Button onClick={() => edit(null)}>New template</Button> : undefined}
          />
        }
      />
    </div>
  );
}
