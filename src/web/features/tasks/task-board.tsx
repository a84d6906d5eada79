import { STATUS_DISPLAY, STORED_STATUSES, type TStoredStatus } from '@domain/status';
import { dropInOrder, moveInOrder, PRIORITY_LABELS, type TTaskListInput } from '@domain/tasks';
import { useMutation, useQueries } from '@tanstack/react-query';
import {
  Avatar,
  Badge,
  cn,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  IconButton,
  Skeleton,
  StatusBadge,
  toast,
  useFormat,
} from '@web/ui';
import { ArrowDown, ArrowUp, MoreHorizontal } from 'lucide-react';
import { type ComponentProps, type DragEvent, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { TaskTimerButton } from '../timesheets/task-timer-button';
import { useTimers } from '../timesheets/use-timer';
import { BOARD_PAGE_SIZE } from './tasks-search';
import { type TTaskRow, useTasksRefresh } from './use-tasks';

const DRAG_TYPE = 'application/x-practice-task';

/**
 * Columns by stored status (an overdue task sits in its stored column with an Overdue badge), each
 * in the firm's own board order. A card moves to another column by dragging it there, and within
 * its column by dropping it on another card (it takes that card's place); the card's menu does both
 * from the keyboard ("Move up", "Move down", "Move to …").
 */
export function TaskBoard({ input, onOpen }: { input: TTaskListInput; onOpen: (id: string) => void }) {
  const canEdit = useCan('tasks.edit');
  const canTime = useCan('timesheets.create');
  // One read of the member's timer for the whole board; each card only compares task ids.
  const timers = useTimers(canTime);
  const refresh = useTasksRefresh();
  const { number } = useFormat();
  const columns = useQueries({
    queries: STORED_STATUSES.map((status) =>
      trpc.tasks.list.queryOptions({
        ...input,
        status: [status],
        page: 1,
        pageSize: BOARD_PAGE_SIZE,
        cursor: undefined,
        sort: { field: 'position', dir: 'asc' },
      }),
    ),
  });
  const [over, setOver] = useState<TStoredStatus | null>(null);
  const move = useMutation(
    trpc.tasks.setStatus.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Moved to ${STATUS_DISPLAY[result.status].label}`);
        await refresh();
      },
    }),
  );
  const moveTo = (taskId: string, status: TStoredStatus) => move.mutate({ taskId, status });
  const reorder = useMutation(
    trpc.tasks.reorder.mutationOptions({
      onSuccess: () => refresh(),
      onError: async (e) => {
        toast.error(e.message);
        await refresh();
      },
    }),
  );
  const orderOf = (status: TStoredStatus) =>
    columns[STORED_STATUSES.indexOf(status)]?.data?.rows.map((r) => r.id) ?? [];
  const place = (taskId: string, order: string[] | null, said?: string) => {
    if (!order) return;
    reorder.mutate({ taskId, order }, { onSuccess: () => (said ? toast.success(said) : undefined) });
  };

  const onDrop = (status: TStoredStatus) => (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setOver(null);
    const raw = e.dataTransfer.getData(DRAG_TYPE);
    if (!raw) return;
    const { id, from } = JSON.parse(raw) as { id: string; from: string };
    if (from !== status) {
      moveTo(id, status);
      return;
    }
    // Within the column: dropped on a card, it takes that card's place.
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-task-id]')?.dataset.taskId;
    if (target && target !== id) place(id, dropInOrder(orderOf(status), id, target));
  };

  return (
    <div
      className="grid gap-3 md:grid-cols-2 xl:grid-cols-4"
      aria-busy={move.isPending || reorder.isPending || undefined}
    >
      {STORED_STATUSES.map((status, i) => {
        const column = columns[i];
        const label = STATUS_DISPLAY[status].label;
        return (
          <section
            key={status}
            aria-label={`${label} column`}
            data-status={status}
            onDragOver={(e) => {
              if (!canEdit) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              setOver(status);
            }}
            onDragLeave={() => setOver((s) => (s === status ? null : s))}
            onDrop={onDrop(status)}
            className={cn(
              'flex min-h-48 flex-col gap-2 rounded-lg border border-border bg-muted/40 p-2',
              over === status && 'border-primary bg-primary/5',
            )}
          >
            <header className="flex items-center justify-between px-1 py-0.5">
              <h2 className="text-sm font-semibold text-fg">{label}</h2>
              <span className="text-xs text-muted-fg tabular-nums">
                {column?.data ? `${number(column.data.total)}${column.data.totalCapped ? '+' : ''}` : ''}
              </span>
            </header>
            {column?.isPending ? (
              <>
                <Skeleton className="h-20" />
                <Skeleton className="h-20" />
              </>
            ) : column?.data?.rows.length === 0 ? (
              <p className="px-1 py-4 text-center text-xs text-muted-fg">No tasks</p>
            ) : (
              column?.data?.rows.map((task, index, rows) => (
                <TaskCard
                  key={task.id}
                  task={task}
                  canEdit={canEdit}
                  timers={canTime ? timers.data : undefined}
                  onOpen={onOpen}
                  onMove={moveTo}
                  first={index === 0}
                  last={index === rows.length - 1}
                  onStep={(step) =>
                    place(
                      task.id,
                      moveInOrder(
                        rows.map((r) => r.id),
                        task.id,
                        step,
                      ),
                      step < 0 ? 'Moved up' : 'Moved down',
                    )
                  }
                />
              ))
            )}
            {column?.data && column.data.total > column.data.rows.length ? (
              <p className="px-1 text-xs text-muted-fg">
                Showing {column.data.rows.length} of {number(column.data.total)}
                {column.data.totalCapped ? '+' : ''}: use the list or filters for the rest.
              </p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

function TaskCard({
  task,
  canEdit,
  timers,
  onOpen,
  onMove,
  onStep,
  first,
  last,
}: {
  task: TTaskRow;
  canEdit: boolean;
  timers: ComponentProps<typeof TaskTimerButton>['current'];
  onOpen: (id: string) => void;
  onMove: (id: string, status: TStoredStatus) => void;
  onStep: (step: -1 | 1) => void;
  first: boolean;
  last: boolean;
}) {
  const format = useFormat();
  return (
    <article
      aria-label={task.title}
      data-task-id={task.id}
      draggable={canEdit}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ id: task.id, from: task.status }));
        e.dataTransfer.effectAllowed = 'move';
      }}
      className={cn(
        'flex flex-col gap-1.5 rounded-md border border-border bg-surface p-2.5 shadow-xs',
        canEdit && 'cursor-grab active:cursor-grabbing',
        timers?.running?.taskId === task.id && 'border-primary/60',
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <button
          type="button"
          onClick={() => onOpen(task.id)}
          className="text-left text-sm font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {task.title}
        </button>
        <span className="-mt-1 -mr-1 flex shrink-0 items-center gap-0.5">
          <TaskTimerButton task={task} current={timers} />
          {canEdit ? (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <IconButton aria-label={`Move ${task.title}`} size="sm" className="text-muted-fg">
                  <MoreHorizontal />
                </IconButton>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem disabled={first} onSelect={() => onStep(-1)}>
                  <ArrowUp aria-hidden />
                  Move up
                </DropdownMenuItem>
                <DropdownMenuItem disabled={last} onSelect={() => onStep(1)}>
                  <ArrowDown aria-hidden />
                  Move down
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuLabel>Move to</DropdownMenuLabel>
                {STORED_STATUSES.filter((s) => s !== task.status).map((s) => (
                  <DropdownMenuItem key={s} onSelect={() => onMove(task.id, s)}>
                    {STATUS_DISPLAY[s].label}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          ) : null}
        </span>
      </div>
      {task.client ? <p className="truncate text-xs text-muted-fg">{task.client.name}</p> : null}
      {/* The project names the period: two "Reconcile with GSTR-2B" cards differ by it. */}
      {task.project ? (
        <p className="truncate text-xs text-muted-fg" title={task.project.name}>
          {task.project.name}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-1.5">
        <StatusBadge status={task.displayStatus} />
        {task.priority === 'high' || task.priority === 'urgent' ? (
          <Badge tone={task.priority === 'urgent' ? 'red' : 'yellow'}>{PRIORITY_LABELS[task.priority]}</Badge>
        ) : null}
        {task.dueDate ? <span className="text-xs text-muted-fg">{format.date(task.dueDate)}</span> : null}
        {task.checklist.total ? (
          <span className="text-xs text-muted-fg tabular-nums">
            ☑ {task.checklist.done}/{task.checklist.total}
          </span>
        ) : null}
        <span className="ml-auto flex -space-x-1">
          {task.assignees.slice(0, 3).map((a) => (
            <Avatar key={a.id} name={a.name} size="sm" />
          ))}
        </span>
      </div>
    </article>
  );
}
