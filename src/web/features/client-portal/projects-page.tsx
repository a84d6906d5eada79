import { PORTAL_PAGE_SIZE } from '@domain/client-portal-constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Card, EmptyState, Pagination, Skeleton, StatusBadge, useFormat } from '@web/ui';
import { FolderKanban } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { Progress } from './parts';

const route = getRouteApi('/clientportal/$clientId/projects');

/** The client's projects: what the firm is working on for them and how far along it is. */
export function PortalProjectsPage() {
  const { clientId } = route.useParams();
  const [page, setPage] = useState(1);
  const format = useFormat();
  const list = useQuery({
    ...trpc.clientPortalProjects.list.queryOptions({ clientId, page, pageSize: PORTAL_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold tracking-tight">Projects</h1>
        <Link
          to="/clientportal/$clientId/calendar"
          params={{ clientId }}
          className="text-sm text-primary underline underline-offset-2"
        >
          Filing calendar
        </Link>
      </div>
      {!list.data ? (
        <Skeleton className="h-48" />
      ) : list.data.total === 0 ? (
        <Card>
          <EmptyState
            icon={FolderKanban}
            title="No projects yet"
            message="The work your firm does for you shows here."
          />
        </Card>
      ) : (
        <Card className="px-4">
          <ul className="divide-y divide-border">
            {list.data.rows.map((p) => (
              <li key={p.id} className="flex flex-col gap-1.5 py-3">
                <div className="flex items-start justify-between gap-3">
                  <span className="min-w-0 font-medium">{p.name}</span>
                  <StatusBadge item={p} className="shrink-0" />
                </div>
                <p className="text-xs text-muted-fg">
                  {[
                    p.periodStart && p.periodEnd ? format.dateRange(p.periodStart, p.periodEnd) : null,
                    p.completedDate
                      ? `Completed ${format.date(p.completedDate)}`
                      : p.dueDate
                        ? `Due ${format.date(p.dueDate)}`
                        : null,
                  ]
                    .filter(Boolean)
                    .join(' · ') || 'No dates yet'}
                </p>
                <Progress {...p.progress} />
              </li>
            ))}
          </ul>
          {list.data.total > PORTAL_PAGE_SIZE ? (
            <Pagination
              page={page}
              pageSize={PORTAL_PAGE_SIZE}
              total={list.data.total}
              onPageChange={setPage}
              className="px-0"
            />
          ) : null}
        </Card>
      )}
    </div>
  );
}
