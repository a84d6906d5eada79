import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, useFormat } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';

/** In a client's header: how many requests are open, how many overdue, and the oldest due date. */
export function ClientRequestsSummary({ clientId }: { clientId: string }) {
  const canView = useCan('requests.view');
  const format = useFormat();
  const summary = useQuery({ ...trpc.requests.clientSummary.queryOptions({ clientId }), enabled: canView });
  const s = summary.data;
  if (!canView || !s || s.open === 0) return null;
  return (
    <Link
      to="/clients/$id/requests"
      params={{ id: clientId }}
      className="inline-flex flex-wrap items-center gap-2 rounded-md border border-border px-2.5 py-1 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
    >
      <ClipboardList aria-hidden className="size-4 text-muted-fg" />
      <span>
        {s.open} open request{s.open === 1 ? '' : 's'}
        {s.oldestDue ? `, oldest due ${format.date(s.oldestDue)}` : ''}
      </span>
      {s.overdue ? <Badge tone="red">{s.overdue} overdue</Badge> : null}
    </Link>
  );
}
