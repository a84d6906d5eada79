import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useFormat } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';
import { RequestStatusBadge } from '../request-status-badge';

/** In the task drawer: the client request a portal to-do stands for, with its state. */
export function TaskRequestLink({ taskId }: { taskId: string }) {
  const canView = useCan('requests.view');
  const format = useFormat();
  const list = useQuery({
    ...trpc.requests.list.queryOptions({ taskId, pageSize: 1 }),
    enabled: canView,
  });
  const request = list.data?.rows[0];
  if (!canView || !request) return null;
  return (
    <section
      aria-label="Client request"
      className="flex flex-wrap items-center gap-2 rounded-md border border-border p-3 text-sm"
    >
      <ClipboardList aria-hidden className="size-4 text-muted-fg" />
      <span className="text-muted-fg">Client request:</span>
      <Link to="/requests/$id" params={{ id: request.id }} className="font-medium text-primary underline">
        {request.title}
      </Link>
      <RequestStatusBadge status={request.displayStatus} />
      <span className="text-xs text-muted-fg">
        {request.progress.done} of {request.progress.total} · due {format.date(request.dueDate)}
      </span>
    </section>
  );
}
