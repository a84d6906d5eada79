import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Button,
  CellText,
  DataTable,
  type DataTableColumn,
  EmptyState,
  PageHeader,
  useFormat,
} from '@web/ui';
import { FileSignature, Plus } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { RequirePermission } from '../shell/access';

type TRow = { id: string; name: string; packageCount: number; addOnCount: number; updatedAt: Date };

/** /admin/templates/proposals: the letters and offers the firm's proposals start from. */
export function ProposalTemplatesPage() {
  return (
    <RequirePermission permission="proposals.manage">
      <Templates />
    </RequirePermission>
  );
}

function Templates() {
  const format = useFormat();
  const list = useQuery(trpc.proposals.templates.list.queryOptions());
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'name',
      header: 'Name',
      primary: true,
      cell: (r) => <CellText className="font-medium">{r.name}</CellText>,
    },
    { id: 'packages', header: 'Packages', className: 'text-right tabular-nums', cell: (r) => r.packageCount },
    { id: 'addOns', header: 'Add-ons', className: 'text-right tabular-nums', cell: (r) => r.addOnCount },
    { id: 'updatedAt', header: 'Last changed', cell: (r) => format.date(r.updatedAt) },
  ];
  const rows = list.data ?? [];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Proposal templates"
        description="Engagement letters with the services, packages and fees a proposal offers."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Proposal templates' }]}
        actions={
          <Button asChild>
            <Link to="/admin/templates/proposals/$id" params={{ id: 'new' }}>
              <Plus aria-hidden /> New template
            </Link>
          </Button>
        }
      />
      <DataTable
        label="Proposal templates"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.name}
        total={rows.length}
        page={1}
        pageSize={Math.max(rows.length, 1)}
        onPageChange={() => {}}
        loading={list.isPending}
        rowLink={(r) => ({ to: '/admin/templates/proposals/$id', params: { id: r.id } })}
        empty={
          <EmptyState
            icon={FileSignature}
            title="No proposal templates yet"
            message="A template holds your engagement letter and the packages you offer, ready to send to a prospect."
          />
        }
      />
    </div>
  );
}
