import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  cardLinkClasses,
  EmptyState,
  Skeleton,
  useFormat,
} from '@web/ui';
import { ClipboardCheck } from 'lucide-react';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';
import { RequestStatusBadge } from '../request-status-badge';

/**
 * The dashboard's "Waiting on clients": requests sent and not yet submitted (sent, in progress,
 * returned), the soonest due first so the overdue ones lead, each a link to its request.
 */
export function WaitingOnClientsCard() {
  const canView = useCan('requests.view');
  const format = useFormat();
  const waiting = useQuery({ ...trpc.requests.waiting.queryOptions({ limit: 8 }), enabled: canView });
  if (!canView) return null;
  const data = waiting.data;
  return (
    <Card aria-labelledby="waiting-on-clients-title">
      <CardHeader>
        <CardTitle id="waiting-on-clients-title">
          Waiting on clients
          {data?.total ? <span className="ml-2 text-sm font-normal text-muted-fg">{data.total}</span> : null}
        </CardTitle>
        <Link
          to="/requests"
          search={{ status: 'open', sort: 'dueDate', direction: 'asc' }}
          className={cardLinkClasses}
        >
          All requests
        </Link>
      </CardHeader>
      <CardContent>
        {waiting.isPending ? (
          <section className="flex flex-col gap-2" aria-busy="true" aria-label="Loading requests">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </section>
        ) : !data?.rows.length ? (
          <EmptyState
            icon={ClipboardCheck}
            title="Nothing waiting on clients"
            message="Requests sent to clients and not yet submitted show up here."
          />
        ) : (
          <>
            {data.overdue ? (
              <p className="mb-2 text-sm text-danger">
                {data.overdue} overdue request{data.overdue === 1 ? '' : 's'}
              </p>
            ) : null}
            <ol className="divide-y divide-border" aria-label="Requests waiting on clients">
              {data.rows.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
                  <span className="min-w-0 flex-1">
                    <Link
                      to="/requests/$id"
                      params={{ id: r.id }}
                      className="font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      {r.title}
                    </Link>
                    <span className="text-muted-fg"> · {r.clientName}</span>
                  </span>
                  <RequestStatusBadge status={r.displayStatus} />
                  <span className="shrink-0 text-xs text-muted-fg">due {format.date(r.dueDate)}</span>
                </li>
              ))}
            </ol>
          </>
        )}
      </CardContent>
    </Card>
  );
}
