import { addDays, todayIn, weekStartOf } from '@domain/days';
import { ENTRY_STATUS_LABELS, formatMinutes } from '@domain/timesheets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { Badge, Button, EmptyState, Input, PageHeader, Select, Skeleton, useFormat } from '@web/ui';
import { CalendarClock, Copy, Send } from 'lucide-react';
import { useMemo, useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { toast } from '../../ui/toaster';
import { useCan } from '../shell/access';
import { type TGridRow, WeekGrid } from './week-grid';
import { WeekNav } from './week-nav';

const route = getRouteApi('/_main/my-account/timesheet');

const WEEK_STATUS_TEXT = {
  open: 'Open',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Sent back',
};

type TEntry = inferRouterOutputs<AppRouter>['timesheets']['myWeek']['entries'][number];

const keyOf = (l: TGridRow['links']) =>
  [l.clientId, l.projectId, l.taskId, l.serviceId].map((v) => v ?? '').join('|');
const labelOf = (e: TEntry) =>
  [e.clientName, e.projectName, e.taskTitle, e.serviceName].filter(Boolean).join(' › ') ||
  e.note ||
  'Firm time';

/** The grid's rows from a week's entries, plus rows added on screen that hold no time yet. */
function rowsOf(entries: TEntry[], extra: TGridRow[]): TGridRow[] {
  const rows = new Map<string, TGridRow>();
  for (const e of entries) {
    const links = { clientId: e.clientId, projectId: e.projectId, taskId: e.taskId, serviceId: e.serviceId };
    const key = keyOf(links);
    const row = rows.get(key) ?? { key, label: labelOf(e), links, note: e.note, cells: {} };
    row.cells[e.date] = (row.cells[e.date] ?? 0) + e.minutes;
    rows.set(key, row);
  }
  for (const r of extra) if (!rows.has(r.key)) rows.set(r.key, r);
  return [...rows.values()];
}

export function MyTimesheetPage() {
  const format = useFormat();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const thisWeek = weekStartOf(todayIn(format.timeZone));
  const weekStart = search.week ?? thisWeek;
  const canEdit = useCan('timesheets.create');
  const queryClient = useQueryClient();
  const week = useQuery(trpc.timesheets.myWeek.queryOptions({ weekStart }));
  const [extra, setExtra] = useState<Record<string, TGridRow[]>>({});
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.timesheets.myWeek.queryKey() });
  const setCell = useMutation(trpc.timesheets.setCell.mutationOptions({ onSettled: invalidate }));
  const submit = useMutation(
    trpc.timesheets.submitWeek.mutationOptions({
      onSuccess: () => toast.success('Week submitted for approval'),
      onSettled: invalidate,
    }),
  );
  const rows = useMemo(
    () => rowsOf(week.data?.entries ?? [], extra[weekStart] ?? []),
    [week.data, extra, weekStart],
  );
  const addRows = (more: TGridRow[]) =>
    setExtra((x) => ({ ...x, [weekStart]: [...(x[weekStart] ?? []), ...more] }));

  const copyLastWeek = async () => {
    const last = await queryClient.fetchQuery(
      trpc.timesheets.myWeek.queryOptions({ weekStart: addDays(weekStart, -7) }),
    );
    const copied = rowsOf(last.entries, []).map((r) => ({ ...r, cells: {} }));
    if (!copied.length) toast.info('Last week has no rows to copy');
    addRows(copied);
  };

  const editable = canEdit && (week.data?.status === 'open' || week.data?.status === 'rejected');
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Timesheet' }]}
        title="Timesheet"
        description="Type hours like 1:30 or 1.5; Enter and the arrow keys move between days."
        actions={
          <WeekNav
            weekStart={weekStart}
            thisWeek={thisWeek}
            onWeek={(w) => navigate({ search: { week: w } })}
          />
        }
      />
      {week.isPending ? (
        <Skeleton className="h-48" />
      ) : week.data ? (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <Badge>{WEEK_STATUS_TEXT[week.data.status]}</Badge>
            {week.data.status === 'rejected' && week.data.comment && (
              <p role="status" className="text-sm text-danger">
                Sent back: {week.data.comment}
              </p>
            )}
            <div className="ml-auto flex gap-2">
              {editable && (
                <Button variant="outline" size="sm" onClick={copyLastWeek}>
                  <Copy aria-hidden /> Copy last week's rows
                </Button>
              )}
              {editable && (
                <Button size="sm" loading={submit.isPending} onClick={() => submit.mutate({ weekStart })}>
                  <Send aria-hidden /> Submit week
                </Button>
              )}
            </div>
          </div>
          {rows.length === 0 && !editable ? (
            <EmptyState
              icon={CalendarClock}
              title="No time this week"
              message="Nothing was recorded for this week."
            />
          ) : (
            <WeekGrid
              days={week.data.days}
              dailyLimitMinutes={week.data.dailyLimitMinutes}
              rows={rows}
              editable={editable}
              onCell={(row, date, minutes) =>
                setCell.mutateAsync({
                  date,
                  minutes,
                  ...row.links,
                  note: row.links.clientId || row.links.taskId ? '' : row.note,
                })
              }
            />
          )}
          {editable && <AddRow onAdd={(row) => addRows([row])} />}
          <DayList entries={week.data.entries} />
        </>
      ) : null}
    </div>
  );
}

/** Picks a client (and, if wanted, one of its projects or tasks), or firm time with a note. */
function AddRow({ onAdd }: { onAdd: (row: TGridRow) => void }) {
  const [clientId, setClientId] = useState('');
  const [linkId, setLinkId] = useState('');
  const [note, setNote] = useState('');
  const options = useQuery(
    trpc.timesheets.rowOptions.queryOptions({ clientId: clientId && clientId !== 'firm' ? clientId : null }),
  );
  const client = options.data?.clients.find((c) => c.id === clientId);
  const project = options.data?.projects.find((p) => `p:${p.id}` === linkId);
  const task = options.data?.tasks.find((t) => `t:${t.id}` === linkId);
  const firm = clientId === 'firm';
  const add = () => {
    const links = {
      clientId: firm ? null : clientId || null,
      projectId: project?.id ?? null,
      taskId: task?.id ?? null,
      serviceId: null,
    };
    const label = firm ? note.trim() : [client?.name, project?.name, task?.title].filter(Boolean).join(' › ');
    onAdd({
      key: keyOf(links) + (firm ? `|${label}` : ''),
      label,
      links,
      note: firm ? note.trim() : '',
      cells: {},
    });
    setClientId('');
    setLinkId('');
    setNote('');
  };
  return (
    <div className="flex flex-wrap items-end gap-2 rounded-lg border border-dashed border-border p-3">
      <Select
        aria-label="Client"
        placeholder="Add a row: client…"
        value={clientId}
        onValueChange={(v) => {
          setClientId(v);
          setLinkId('');
        }}
        options={[
          { value: 'firm', label: 'Firm time (no client)' },
          ...(options.data?.clients ?? []).map((c) => ({ value: c.id, label: c.name })),
        ]}
        className="w-60"
      />
      {clientId && !firm && (
        <Select
          aria-label="Project or task"
          placeholder="Project or task (optional)"
          value={linkId}
          onValueChange={setLinkId}
          options={[
            ...(options.data?.projects ?? []).map((p) => ({
              value: `p:${p.id}`,
              label: `Project: ${p.name}`,
            })),
            ...(options.data?.tasks ?? []).map((t) => ({ value: `t:${t.id}`, label: `Task: ${t.title}` })),
          ]}
          className="w-72"
        />
      )}
      {firm && (
        <Input
          aria-label="Note"
          placeholder="What was it? (training, admin…)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          className="w-72"
        />
      )}
      <Button variant="outline" size="sm" disabled={!clientId || (firm && !note.trim())} onClick={add}>
        Add row
      </Button>
    </div>
  );
}

function DayList({ entries }: { entries: TEntry[] }) {
  const format = useFormat();
  if (!entries.length) return null;
  return (
    <section aria-labelledby="day-list" className="flex flex-col gap-2">
      <h2 id="day-list" className="text-sm font-semibold">
        Day by day
      </h2>
      <ul className="divide-y divide-border rounded-lg border border-border bg-surface text-sm">
        {entries.map((e) => (
          <li key={e.id} className="flex items-center gap-3 px-3 py-2">
            <span className="w-32 text-muted-fg">{format.date(e.date, 'weekday')}</span>
            <span className="w-14 text-right tabular-nums">{formatMinutes(e.minutes)}</span>
            <span className="min-w-0 flex-1 truncate">{labelOf(e)}</span>
            <Badge>{ENTRY_STATUS_LABELS[e.status]}</Badge>
          </li>
        ))}
      </ul>
    </section>
  );
}
