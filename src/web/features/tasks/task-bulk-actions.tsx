import { STATUS_DISPLAY, STORED_STATUSES } from '@domain/status';
import type { TTaskBulk } from '@domain/tasks';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
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
  const menu = (label: string, items: { key: string; label: string; action: TTaskBulk['action'] }[]) => (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" disabled={bulk.isPending}>
          {label}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
        {items.length === 0 ? <DropdownMenuLabel>Nothing to choose</DropdownMenuLabel> : null}
        {items.map((item) => (
          <DropdownMenuItem key={item.key} onSelect={() => run(item.action)}>
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
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
