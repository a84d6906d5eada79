import { PROPOSAL_STATUS_LABELS, type TProposalDisplayStatus } from '@domain/proposals';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  CellText,
  DataTable,
  type DataTableColumn,
  EmptyState,
  PageHeader,
  Select,
  useFormat,
} from '@web/ui';
import { FileSignature, Plus } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission } from '../shell/access';
import { NewProposalDialog } from './new-proposal-dialog';
import { ProposalStatusBadge } from './proposal-status-badge';

const PAGE_SIZE = 25;

/** /proposals: every proposal the member may see, newest first, by status; a new one from here. */
export function ProposalsPage() {
  return (
    <RequirePermission permission="proposals.manage">
      <Proposals />
    </RequirePermission>
  );
}

type TRow = {
  id: string;
  title: string;
  kind: 'proposal' | 'document';
  clientName: string;
  prospect: boolean;
  displayStatus: TProposalDisplayStatus;
  expiresOn: string;
  sentAt: Date | null;
};

function Proposals() {
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<TProposalDisplayStatus | 'all'>('all');
  const [creating, setCreating] = useState(false);
  const list = useQuery(
    trpc.proposals.list.queryOptions({ page, pageSize: PAGE_SIZE, ...(status === 'all' ? {} : { status }) }),
  );
  const columns: DataTableColumn<TRow>[] = [
    {
      id: 'title',
      header: 'Proposal',
      primary: true,
      cell: (r) => (
        <CellText className="font-medium">
          {r.title}
          {r.kind === 'document' ? (
            <span className="ml-1 text-xs text-muted-fg">(signature request)</span>
          ) : null}
        </CellText>
      ),
    },
    { id: 'client', header: 'Client', cell: (r) => `${r.clientName}${r.prospect ? ' (prospect)' : ''}` },
    { id: 'status', header: 'Status', cell: (r) => <ProposalStatusBadge status={r.displayStatus} /> },
    { id: 'sent', header: 'Sent', cell: (r) => format.date(r.sentAt) },
    { id: 'expires', header: 'Expires', cell: (r) => format.date(r.expiresOn) },
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Proposals"
        description="Engagement letters and fee quotes your clients and prospects sign online."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden /> New proposal
          </Button>
        }
      />
      <Select
        aria-label="Status"
        className="w-56"
        value={status}
        options={[
          { value: 'all', label: 'Any status' },
          ...Object.entries(PROPOSAL_STATUS_LABELS).map(([value, label]) => ({ value, label })),
        ]}
        onValueChange={(v) => {
          setStatus(v as TProposalDisplayStatus | 'all');
          setPage(1);
        }}
      />
      <DataTable
        label="Proposals"
        columns={columns}
        rows={list.data?.rows ?? []}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.title}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        loading={list.isPending}
        rowLink={(r) => ({ to: '/proposals/$id', params: { id: r.id } })}
        empty={
          <EmptyState
            icon={FileSignature}
            title="No proposals here"
            message="Send a prospect your engagement letter and fees to sign online."
          />
        }
      />
      <NewProposalDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}
