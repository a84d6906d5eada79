import { formatAmountWithUnit } from '@domain/leave';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  type DataTableColumn,
  EmptyState,
  PageHeader,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
} from '@web/ui';
import { CalendarCheck, Inbox } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { DecideDrawer } from './decide-drawer';
import { LeaveDates, LeaveStatusBadge, LocalTable, levelOf, overAwayShare, type TTeamRequest } from './parts';

/** /team/leaves: the requests waiting for the caller's decision (oldest start first), and the decided. */
export function TeamLeavesPage() {
  const [tab, setTab] = useState<'pending' | 'decided'>('pending');
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        title="Team leaves"
        description="Approve or reject your team's leave; see who else is away before you decide."
        trail={[{ label: 'Team leaves' }]}
      />
      <Tabs value={tab} onValueChange={(v) => setTab(v as 'pending' | 'decided')}>
        <TabsList>
          <TabsTrigger value="pending">Pending</TabsTrigger>
          <TabsTrigger value="decided">Decided</TabsTrigger>
        </TabsList>
        <TabsContent value="pending">
          <PendingList />
        </TabsContent>
        <TabsContent value="decided">
          <DecidedList />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function PendingList() {
  const team = useQuery(trpc.leave.requests.team.queryOptions({ status: 'pending' }));
  const [open, setOpen] = useState<TTeamRequest | null>(null);
  const warn = team.data?.awayWarnPercent ?? 0;
  const columns: DataTableColumn<TTeamRequest>[] = [
    { id: 'member', header: 'Member', cell: (r) => <span className="font-medium">{r.memberName}</span> },
    { id: 'type', header: 'Type', cell: (r) => r.typeName },
    { id: 'dates', header: 'Dates', cell: (r) => <LeaveDates {...r} /> },
    {
      id: 'amount',
      header: 'Days',
      className: 'text-right tabular-nums whitespace-nowrap',
      cell: (r) => formatAmountWithUnit(r.amount, r.unit),
    },
    {
      id: 'away',
      header: 'Team away',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (r) =>
        r.awayShare === null ? (
          '-'
        ) : (
          <Badge tone={overAwayShare(r, warn) ? 'red' : 'grey'}>{r.awayShare}%</Badge>
        ),
    },
    {
      id: 'level',
      header: 'Level',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (r) => levelOf(r) ?? <span className="text-muted-fg">One approval</span>,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (r) => (
        <Button size="sm" variant="outline" onClick={() => setOpen(r)}>
          Review
        </Button>
      ),
    },
  ];
  return (
    <>
      <LocalTable
        label="Leave waiting for your decision"
        columns={columns}
        rows={team.data?.rows ?? []}
        getRowId={(r) => r.id}
        loading={team.isPending}
        empty={
          <EmptyState
            icon={Inbox}
            title="Nothing to decide"
            message="New requests from your team show here."
          />
        }
      />
      <DecideDrawer request={open} warnPercent={warn} onClose={() => setOpen(null)} />
    </>
  );
}

function DecidedList() {
  const team = useQuery(trpc.leave.requests.team.queryOptions({ status: 'decided' }));
  const columns: DataTableColumn<TTeamRequest>[] = [
    { id: 'member', header: 'Member', cell: (r) => <span className="font-medium">{r.memberName}</span> },
    { id: 'type', header: 'Type', cell: (r) => r.typeName },
    { id: 'dates', header: 'Dates', cell: (r) => <LeaveDates {...r} /> },
    {
      id: 'amount',
      header: 'Days',
      className: 'text-right tabular-nums whitespace-nowrap',
      cell: (r) => formatAmountWithUnit(r.amount, r.unit),
    },
    { id: 'status', header: 'Status', cell: (r) => <LeaveStatusBadge status={r.status} /> },
    {
      id: 'comment',
      header: 'Comment',
      className: 'hidden md:table-cell',
      // Free text: it shares what room is left and clips, so no column is pushed out of view.
      truncate: true,
      lines: 2,
      cell: (r) => <span className="text-muted-fg">{r.decisionComment ?? '-'}</span>,
    },
  ];
  return (
    <LocalTable
      label="Decided leave"
      columns={columns}
      rows={team.data?.rows ?? []}
      getRowId={(r) => r.id}
      loading={team.isPending}
      empty={<EmptyState icon={CalendarCheck} title="No decided leave yet" />}
    />
  );
}
