import { LEAVE_PART_LABELS, LEAVE_STATUS_LABELS, type TLeavePart, type TLeaveStatus } from '@domain/leave';
import type { inferRouterOutputs } from '@trpc/server';
import { Badge, type BadgeTone, DataTable, type DataTableColumn, useFormat } from '@web/ui';
import { type ReactNode, useState } from 'react';
import type { AppRouter } from '../../lib/trpc';

const STATUS_TONES: Record<TLeaveStatus, BadgeTone> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
  cancelled: 'light-grey',
};

export function LeaveStatusBadge({ status }: { status: TLeaveStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]} dot>
      {LEAVE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "1–3 Jul 2026", or one day and the part of it taken. */
export function LeaveDates({
  startDate,
  endDate,
  part,
}: {
  startDate: string;
  endDate: string;
  part: TLeavePart;
}) {
  const format = useFormat();
  const days = startDate === endDate ? format.date(startDate) : format.dateRange(startDate, endDate);
  return (
    <span className="whitespace-nowrap">
      <time dateTime={startDate}>{days}</time>
      {part !== 'full' ? <span className="text-muted-fg"> · {LEAVE_PART_LABELS[part]}</span> : null}
    </span>
  );
}

/**
 * A DataTable over rows already loaded (a year of one member's leave, a firm's holidays): pages
 * in the browser, so the screens look and move like the server-paged lists.
 */
export function LocalTable<T>({
  label,
  columns,
  rows,
  getRowId,
  loading,
  empty,
  toolbar,
}: {
  label: string;
  columns: DataTableColumn<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  loading?: boolean;
  empty?: ReactNode;
  toolbar?: ReactNode;
}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const last = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(page, last);
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={rows.slice((current - 1) * pageSize, current * pageSize)}
      getRowId={getRowId}
      total={rows.length}
      page={current}
      pageSize={pageSize}
      onPageChange={setPage}
      onPageSizeChange={(size) => {
        setPageSize(size);
        setPage(1);
      }}
      pageSizeOptions={[25, 50, 100]}
      loading={loading}
      empty={empty}
      toolbar={toolbar}
    />
  );
}

export type TTeam = inferRouterOutputs<AppRouter>['leave']['requests']['team'];
export type TTeamRequest = TTeam['rows'][number];

/** Whether approving would take away more of the team than the firm allows (0 turns the warning off). */
export function overAwayShare(row: { awayShare: number | null }, warnPercent: number): boolean {
  return warnPercent > 0 && row.awayShare !== null && row.awayShare > warnPercent;
}

/** Where a request stands in a two-level approval, if it has two. */
export function levelOf(row: Pick<TTeamRequest, 'needsSecondLevel' | 'firstApproverId'>): string | null {
  if (!row.needsSecondLevel) return null;
  return row.firstApproverId ? 'Second approval' : 'First of two approvals';
}

export type TLeaveTypeRow = inferRouterOutputs<AppRouter>['leave']['types']['list'][number];
export type TMemberWorkRow = inferRouterOutputs<AppRouter>['leave']['setup']['members'][number];
export type THolidayRow = inferRouterOutputs<AppRouter>['leave']['holidays']['list'][number];
