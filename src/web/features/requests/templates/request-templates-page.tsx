import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  Button,
  CellText,
  confirm,
  DataTable,
  type DataTableColumn,
  EmptyState,
  IconButton,
  PageHeader,
  toast,
  useFormat,
} from '@web/ui';
import { ClipboardList, Copy, Plus, Trash2 } from 'lucide-react';
import { trpc } from '../../../lib/trpc';
import { RequirePermission, useCan } from '../../shell/access';

type TRow = {
  id: string;
  name: string;
  description: string;
  itemCount: number;
  sectionCount: number;
  updatedAt: Date;
};

/** /admin/templates/requests: the request templates the firm sends clients from. */
export function RequestTemplatesPage() {
  return (
    <RequirePermission permission="requests.view">
      <RequestTemplates />
    </RequirePermission>
  );
}

function RequestTemplates() {
  const canManage = useCan('requests.manage');
  const format = useFormat();
  const go = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.requests.templates.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.requests.templates.pathKey() });
  const copy = useMutation(
    trpc.requests.templates.copy.mutationOptions({
      onSuccess: async (copied) => {
        toast.success(`Copied as ${copied.name}`);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.requests.templates.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Template deleted');
        await refresh();
      },
    }),
  );
  const askDelete = async (row: TRow) => {
    const sure = await confirm({
      title: `Delete “${row.name}”?`,
      message: 'Requests already sent from it keep their items.',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (sure) remove.mutate({ templateId: row.id });
  };
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Name',
      primary: true,
      minWidth: 12,
      cell: (r) => (
        <>
          <CellText className="font-medium text-fg">{r.name}</CellText>
          {r.description ? <CellText className="text-xs text-muted-fg">{r.description}</CellText> : null}
        </>
      ),
    },
    { id: 'items', header: 'Items', className: 'text-right tabular-nums', cell: (r) => r.itemCount },
    { id: 'updatedAt', header: 'Last changed', cell: (r) => format.date(r.updatedAt) },
    ...(canManage
      ? [
          {
            id: 'actions',
            header: <span className="sr-only">Actions</span>,
            className: 'w-20',
            cell: (r: TRow) => (
              <div data-row-actions className="flex justify-end gap-0.5">
                <IconButton
                  aria-label={`Copy ${r.name}`}
                  size="sm"
                  onClick={() => copy.mutate({ templateId: r.id })}
                >
                  <Copy />
                </IconButton>
                <IconButton aria-label={`Delete ${r.name}`} size="sm" onClick={() => void askDelete(r)}>
                  <Trash2 />
                </IconButton>
              </div>
            ),
          },
        ]
      : []),
  ];
  const rows = list.data ?? [];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Request templates"
        description="The documents and answers a request asks a client for, ready to send and adjust per client."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Request templates' }]}
        actions={
          canManage ? (
            <Button asChild>
              <Link to="/admin/templates/requests/$id" params={{ id: 'new' }}>
                <Plus aria-hidden /> New template
              </Link>
            </Button>
          ) : null
        }
      />
      <DataTable
        label="Request templates"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.name}
        total={rows.length}
        page={1}
        pageSize={Math.max(rows.length, 1)}
        onPageChange={() => {}}
        loading={list.isPending}
        rowLink={(r) => ({ to: '/admin/templates/requests/$id', params: { id: r.id } })}
        empty={
          <EmptyState
            icon={ClipboardList}
            title="No request templates yet"
            message="A template lists what to ask a client for, e.g. the documents for this year's return."
            action={
              canManage ? (
                <Button onClick={() => go({ to: '/admin/templates/requests/$id', params: { id: 'new' } })}>
                  New template
                </Button>
              ) : undefined
            }
          />
        }
      />
    </div>
  );
}
