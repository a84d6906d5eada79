import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Card, CardContent, CardHeader, CardTitle, cardLinkClasses, useFormat } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { RequestProgress, RequestStatusBadge } from './request-status-badge';

/** The portal home's card: the requests still open, soonest due first; nothing when there are none. */
export function PortalOpenRequests({ clientId }: { clientId: string }) {
  const format = useFormat();
  const open = useQuery(trpc.clientPortalRequests.list.queryOptions({ clientId, open: true, pageSize: 5 }));
  if (!open.data?.total) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Requests from the firm</CardTitle>
        <Link to="/clientportal/$clientId/requests" params={{ clientId }} className={cardLinkClasses}>
          All requests
        </Link>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border">
          {open.data.rows.map((r) => (
            <li key={r.id} className="flex flex-col gap-1.5 py-3">
              <div className="flex items-start justify-between gap-3">
                <Link
                  to="/clientportal/$clientId/requests/$requestId"
                  params={{ clientId, requestId: r.id }}
                  className="min-w-0 break-words font-medium hover:underline"
                >
                  {r.title}
                </Link>
                <RequestStatusBadge status={r.displayStatus} className="shrink-0" />
              </div>
              <p className="text-xs text-muted-fg">Due {format.date(r.dueDate)}</p>
              <RequestProgress {...r.progress} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
