import { STATUS_DISPLAY, STORED_STATUSES, type TDisplayStatus, type TStoredStatus } from '@domain/status';
import type { TTaskBulk } from '@domain/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ActionMenu,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  StatusBadge,
  type TActionMenuItem,
  toast,
} from '@web/ui';
import { ChevronDown } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { useTasksRefresh } from './use-tasks';

/** The bar's actions over the selected tasks: each is one request, audited once with the count. */
export function TaskBulkActions({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const refresh = useTasksRefresh();
  const options = useQuery(trpc.tasks.options.queryOptions());
  const bulk = useMutation(
    trpc.tasks.bulk.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Updated ${result.affected} task${result.affected === 1 ? '' : 's'}`);
        onDone();
        await refresh();
      },
    }),
  );
  const run = (action: TTaskBulk['action']) => bulk.mutate({ ids, action });
  const menu = (label: string, items: TActionMenuItem<TTaskBulk['action']>[]) => (
    <ActionMenu label={label} items={items} disabled={bulk.isPending} onPick={run} />
  );
  const members = options.data?.members ?? [];
  return (
    <>
      {menu(
        'Change status',
        STORED_STATUSES.map((s) => ({
          key: s,
          label: STATUS_DISPLAY[s].label,
          action: { kind: 'setStatus', status: s },
        })),
      )}
      {menu(
        'Assign',
        members.map((m) => ({ key: m.id, label: m.name, action: { kind: 'assign', memberId: m.id } })),
      )}
      {menu(
        'Unassign',
        members.map((m) => ({ key: m.id, label: m.name, action: { kind: 'unassign', memberId: m.id } })),
      )}
    </>
  );
}

/** A row's own status control: the bulk "Change status" for one task. */
export function TaskStatusMenu({
  task,
}: {
  task: { id: string; title: string; status: TStoredStatus; displayStatus: TDisplayStatus };
}) {
  const refresh = useTasksRefresh();
  const bulk = useMutation(
    trpc.tasks.bulk.mutationOptions({
      onSuccess: async (_, input) => {
        if (input.action.kind === 'setStatus') {
          toast.success(`Moved to ${STATUS_DISPLAY[input.action.status].label}`);
        }
        await refresh();
      },
    }),
  );
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          aria-label={`Status of ${task.title}: ${STATUS_DISPLAY[task.displayStatus].label}`}
          disabled={bulk.isPending}
          className="inline-flex items-center gap-0.5 rounded-md focus-visible:outline-2 focus-visible:outline-ring"
        >
          <StatusBadge status={task.displayStatus} />
          <ChevronDown aria-hidden className="size-3.5 text-muted-fg" />
        </button>
      </DropdownMenuTrigger>
      {/* The menu is portalled out of the row, but React still bubbles its clicks to the row: stop
          them here so choosing a status does not also open the task. */}
      <DropdownMenuContent align="start" onClick={(e) => e.stopPropagation()}>
        <DropdownMenuLabel>Move to</DropdownMenuLabel>
        {STORED_STATUSES.filter((s) => s !== task.status).map((s) => (
          <DropdownMenuItem
            key={s}
            onSelect={() => bulk.mutate({ ids: [task.id], action: { kind: 'setStatus', status: s } })}
          >
            {STATUS_DISPLAY[s].label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
