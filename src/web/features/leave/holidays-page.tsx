import { todayIn } from '@domain/days';
import { HOLIDAY_PART_LABELS } from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  confirm,
  type DataTableColumn,
  EmptyState,
  PageHeader,
  Select,
  toast,
  useFormat,
} from '@web/ui';
import { CalendarPlus, Copy, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequirePermission, useCan } from '../shell/access';
import { ALL_OFFICES, HolidayDialog } from './holiday-dialog';
import { HolidayImportDialog } from './holiday-import-dialog';
import { LocalTable, type THolidayRow } from './parts';

/** /admin/hrms/holidays: a year's holidays, firm-wide or per office, with import and copy to next year. */
export function HolidaysPage() {
  return (
    <RequirePermission permission="leaves.view">
      <HolidaysScreen />
    </RequirePermission>
  );
}

function HolidaysScreen() {
  const queryClient = useQueryClient();
  const format = useFormat();
  const canEdit = useCan('leaves.edit');
  const canDelete = useCan('leaves.delete');
  const thisYear = Number(todayIn(format.timeZone).slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const [office, setOffice] = useState(ALL_OFFICES);
  const settings = useQuery(trpc.leave.setup.get.queryOptions());
  const offices = settings.data?.offices ?? [];
  const list = useQuery(
    trpc.leave.holidays.list.queryOptions({ year, office: office === ALL_OFFICES ? null : office }),
  );
  const [editing, setEditing] = useState<THolidayRow | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
  const remove = useMutation(
    trpc.leave.holidays.delete.mutationOptions({
      onSuccess: () => {
        toast.success('Holiday deleted');
        void invalidate();
      },
    }),
  );
  const copy = useMutation(
    trpc.leave.holidays.copyToNextYear.mutationOptions({
      onSuccess: (r: { added: number }) => {
        toast.success(
          `Copied ${r.added} holiday${r.added === 1 ? '' : 's'} to ${year + 1}: check the dates of festivals that move`,
        );
        void invalidate();
      },
    }),
  );
  const columns: DataTableColumn<THolidayRow>[] = [
    {
      id: 'date',
      header: 'Date',
      className: 'whitespace-nowrap',
      cell: (h) => <time dateTime={h.date}>{format.date(h.date)}</time>,
    },
    { id: 'name', header: 'Holiday', cell: (h) => <span className="font-medium">{h.name}</span> },
    { id: 'part', header: 'Part', className: 'whitespace-nowrap', cell: (h) => HOLIDAY_PART_LABELS[h.part] },
    {
      id: 'office',
      header: 'Office',
      cell: (h) => h.office ?? <span className="text-muted-fg">Every office</span>,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      cell: (h) => (
        <span className="inline-flex gap-2">
          {canEdit ? (
            <Button size="sm" variant="outline" onClick={() => setEditing(h)}>
              Edit
              <span className="sr-only"> {h.name}</span>
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={async () => {
                if (
                  await confirm({
                    title: `Delete ${h.name}?`,
                    message: 'Leave already approved keeps the days it deducted.',
                    confirmLabel: 'Delete',
                    danger: true,
                  })
                ) {
                  remove.mutate({ holidayId: h.id });
                }
              }}
            >
              Delete
              <span className="sr-only"> {h.name}</span>
            </Button>
          ) : null}
        </span>
      ),
    },
  ];
  const years = [thisYear - 1, thisYear, thisYear + 1, thisYear + 2];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        title="Holidays"
        description="Days off for everyone, or for one office; half days count as half."
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Holidays' }]}
        actions={
          canEdit ? (
            <>
              <Button
                variant="outline"
                loading={copy.isPending}
                disabled={!list.data?.length}
                onClick={() =>
                  copy.mutate({ fromYear: year, office: office === ALL_OFFICES ? null : office })
                }
              >
                <Copy aria-hidden />
                Copy to {year + 1}
              </Button>
              <Button variant="outline" onClick={() => setImporting(true)}>
                <Upload aria-hidden />
                Import CSV
              </Button>
              <Button onClick={() => setEditing('new')}>
                <Plus aria-hidden />
                New holiday
              </Button>
            </>
          ) : null
        }
      />
      <LocalTable
        label={`Holidays in ${year}`}
        columns={columns}
        rows={list.data ?? []}
        getRowId={(h) => h.id}
        loading={list.isPending}
        toolbar={
          <div className="flex flex-wrap gap-2">
            <Select
              aria-label="Year"
              className="w-28"
              value={String(year)}
              onValueChange={(v) => setYear(Number(v))}
              options={years.map((y) => ({ value: String(y), label: String(y) }))}
            />
            {offices.length ? (
              <Select
                aria-label="Office"
                className="w-48"
                value={office}
                onValueChange={setOffice}
                options={[
                  { value: ALL_OFFICES, label: 'Every office' },
                  ...offices.map((o) => ({ value: o, label: o })),
                ]}
              />
            ) : null}
          </div>
        }
        empty={
          <EmptyState
            icon={CalendarPlus}
            title={`No holidays in ${year}`}
            message={canEdit ? 'Add them one by one, import a CSV, or copy last year’s.' : undefined}
          />
        }
      />
      <HolidayDialog
        open={editing !== null}
        holiday={editing === 'new' ? null : editing}
        offices={offices}
        defaultDate={year === thisYear ? null : `${year}-01-01`}
        onClose={() => setEditing(null)}
      />
      <HolidayImportDialog open={importing} offices={offices} onClose={() => setImporting(false)} />
    </div>
  );
}
