import { PORTAL_PAGE_SIZE } from '@domain/client-portal-constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Card, EmptyState, Pagination, Skeleton, useFormat } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { RequestProgress, RequestStatusBadge } from './request-status-badge';

const route = getRouteApi('/clientportal/$clientId/requests/');

/** What the firm asked this person for: what waits on them first (soonest due), then the rest. */
export function PortalRequestsPage() {
  const { clientId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const format = useFormat();
  const page = search.page ?? 1;
  const list = useQuery({
    ...trpc.clientPortalRequests.list.queryOptions({ clientId, page, pageSize: PORTAL_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold tracking-tight">Requests</h1>
      {!data ? (
        <Skeleton className="h-48" />
      ) : data.total === 0 ? (
        <Card>
          <EmptyState
            icon={ClipboardList}
            title="No requests yet"
            message="When your firm asks you for documents or answers, the request shows here."
          />
        </Card>
      ) : (
        <>
          <Card className="px-4">
            <ul className="divide-y divide-border" aria-label="Requests">
              {data.rows.map((r) => (
                <li key={r.id} className="flex flex-col gap-1.5 py-3">
                  <div className="flex items-start justify-between gap-3">
                    <Link
                      to="/clientportal/$clientId/requests/$requestId"
                      params={{ clientId, requestId: r.id }}
                      className="min-w-0 break-words font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
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
          </Card>
          <Pagination
            page={page}
            pageSize={PORTAL_PAGE_SIZE}
            total={data.total}
            onPageChange={(p) => navigate({ search: (s) => ({ ...s, page: p > 1 ? p : undefined }) })}
          />
        </>
      )}
    </div>
  );
}
