import { ACCRUAL_LABELS, dayCountText, formatAmountWithUnit, LEAVE_UNIT_LABELS } from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  confirm,
  type DataTableColumn,
  EmptyState,
  PageHeader,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
} from '@web/ui';
import { CalendarOff, Plus } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { LeaveTypeDialog } from './leave-type-dialog';
import { MembersTab } from './members-tab';
import { LocalTable, type TLeaveTypeRow } from './parts';
import { WorkPatternCard } from './work-pattern-card';

/** /admin/hrms/leaves: the leave types, the firm's work pattern, and each member's set-up and allocations. */
export function AdminLeavesPage() {
  return (
    <RequirePermission permission="leaves.view">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
        <PageHeader
          title="Leave types"
          description="The firm's leave types, working week and approvals, and each member's allowance."
          trail={[{ label: 'Admin', to: '/admin' }, { label: 'Leave types' }]}
        />
        <Tabs defaultValue="types">
          <TabsList>
            <TabsTrigger value="types">Leave types</TabsTrigger>
            <TabsTrigger value="pattern">Work pattern</TabsTrigger>
            <TabsTrigger value="members">Members</TabsTrigger>
          </TabsList>
          <TabsContent value="types">
            <TypesTab />
          </TabsContent>
          <TabsContent value="pattern">
            <WorkPatternCard />
          </TabsContent>
          <TabsContent value="members">
            <MembersTab />
          </TabsContent>
        </Tabs>
      </div>
    </RequirePermission>
  );
}

function TypesTab() {
  const queryClient = useQueryClient();
  const canEdit = useCan('leaves.edit');
  const canDelete = useCan('leaves.delete');
  const types = useQuery(trpc.leave.types.list.queryOptions({}));
  const [editing, setEditing] = useState<TLeaveTypeRow | 'new' | null>(null);
  const archive = useMutation(
    trpc.leave.types.archive.mutationOptions({
      onSuccess: () => {
        toast.success('Leave type archived');
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const columns: DataTableColumn<TLeaveTypeRow>[] = [
    {
      id: 'name',
      header: 'Leave type',
      cell: (t) => (
        <span className="flex items-center gap-2 font-medium">
          {t.name}
          {t.paid ? null : <Badge tone="light-grey">Unpaid</Badge>}
        </span>
      ),
    },
    {
      id: 'allowance',
      header: 'A year',
      className: 'text-right tabular-nums whitespace-nowrap',
      cell: (t) => formatAmountWithUnit(t.allowance, t.unit),
    },
    {
      id: 'unit',
      header: 'Counted in',
      className: 'hidden md:table-cell',
      cell: (t) => LEAVE_UNIT_LABELS[t.unit],
    },
    {
      id: 'accrual',
      header: 'Accrual',
      className: 'hidden lg:table-cell',
      cell: (t) => ACCRUAL_LABELS[t.accrual],
    },
    {
      id: 'carry',
      header: 'Carry forward',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (t) =>
        t.carryForwardCap === null
          ? 'No limit'
          : t.carryForwardCap === 0
            ? 'None'
            : `Up to ${formatAmountWithUnit(t.carryForwardCap, t.unit)}`,
    },
    {
      id: 'attachment',
      header: 'Attachment',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (t) =>
        t.attachmentAfterDays === null ? 'Not required' : `Beyond ${dayCountText(t.attachmentAfterDays)}`,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      cell: (t) => (
        <span className="inline-flex gap-2">
          {canEdit ? (
            <Button size="sm" variant="outline" onClick={() => setEditing(t)}>
              Edit
              <span className="sr-only"> {t.name}</span>
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={async () => {
                if (
                  await confirm({
                    title: `Archive ${t.name}?`,
                    message: 'No one can apply for it any more; past requests keep their type.',
                    confirmLabel: 'Archive',
                    danger: true,
                  })
                ) {
                  archive.mutate({ leaveTypeId: t.id });
                }
              }}
            >
              Archive
              <span className="sr-only"> {t.name}</span>
            </Button>
          ) : null}
        </span>
      ),
    },
  ];
  const add = canEdit ? (
    <Button onClick={() => setEditing('new')}>
      <Plus aria-hidden />
      New leave type
    </Button>
  ) : null;
  return (
    <>
      <LocalTable
        label="Leave types"
        columns={columns}
        rows={types.data ?? []}
        getRowId={(t) => t.id}
        loading={types.isPending}
        toolbar={<div className="flex w-full justify-end">{add}</div>}
        empty={
          <EmptyState
            icon={CalendarOff}
            title="No leave types yet"
            message="Add the kinds of leave your firm gives: annual, sick, unpaid…"
            action={add}
          />
        }
      />
      <LeaveTypeDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        type={editing === 'new' ? null : editing}
      />
    </>
  );
}
