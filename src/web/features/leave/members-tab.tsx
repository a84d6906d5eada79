import { todayIn } from '@domain/days';
import { formatAmountWithUnit, WEEKDAY_LABELS } from '@domain/leave';
import { useQuery } from '@tanstack/react-query';
import { Button, type DataTableColumn, EmptyState, useFormat } from '@web/ui';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { AllocateDialog, MemberWorkDialog } from './member-dialogs';
import { LocalTable, type TMemberWorkRow } from './parts';

const patternText = (m: TMemberWorkRow) =>
  m.workingDays
    ? `${m.workingDays.map((d) => WEEKDAY_LABELS[d - 1]).join(' ')}${m.minutesPerDay ? ` · ${m.minutesPerDay / 60} h` : ''}`
    : "Firm's";

/** Each member's manager, office and pattern, this year's balances, and allocations or adjustments. */
export function MembersTab() {
  const canEdit = useCan('leaves.edit');
  const format = useFormat();
  const year = Number(todayIn(format.timeZone).slice(0, 4));
  const members = useQuery(trpc.leave.setup.members.queryOptions());
  const types = useQuery(trpc.leave.types.list.queryOptions({}));
  const balances = useQuery({ ...trpc.leave.setup.balances.queryOptions({ year }), enabled: canEdit });
  const [editing, setEditing] = useState<TMemberWorkRow | null>(null);
  const [allocating, setAllocating] = useState<TMemberWorkRow | null>(null);
  const names = new Map((members.data ?? []).map((m) => [m.memberId, m.name]));
  const columns: DataTableColumn<TMemberWorkRow>[] = [
    { id: 'name', header: 'Member', cell: (m) => <span className="font-medium">{m.name}</span> },
    {
      id: 'manager',
      header: 'Manager',
      cell: (m) => (m.managerId ? (names.get(m.managerId) ?? '-') : <span className="text-muted-fg">-</span>),
    },
    { id: 'office', header: 'Office', className: 'hidden md:table-cell', cell: (m) => m.office ?? '-' },
    {
      id: 'pattern',
      header: 'Work pattern',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (m) => <span className="text-muted-fg">{patternText(m)}</span>,
    },
    {
      id: 'balances',
      header: `Balance ${year}`,
      className: 'hidden md:table-cell',
      cell: (m) => {
        const own = (balances.data ?? []).filter((b) => b.memberId === m.memberId);
        if (!types.data?.length) return '-';
        return (
          <span className="text-xs">
            {types.data
              .map((t) => {
                const b = own.find((x) => x.leaveTypeId === t.id);
                return `${t.name} ${formatAmountWithUnit(b?.balance ?? 0, t.unit)}`;
              })
              .join(' · ')}
          </span>
        );
      },
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      cell: (m) =>
        canEdit ? (
          <span className="inline-flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setEditing(m)}>
              Edit
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={!types.data?.length}
              onClick={() => setAllocating(m)}
            >
              Allocate
            </Button>
          </span>
        ) : null,
    },
  ];
  return (
    <>
      <LocalTable
        label="Members' leave set-up"
        columns={columns}
        rows={members.data ?? []}
        getRowId={(m) => m.memberId}
        loading={members.isPending}
        empty={<EmptyState icon={Users} title="No members yet" />}
      />
      <MemberWorkDialog member={editing} members={members.data ?? []} onClose={() => setEditing(null)} />
      <AllocateDialog
        member={allocating}
        year={year}
        types={types.data ?? []}
        onClose={() => setAllocating(null)}
      />
    </>
  );
}
