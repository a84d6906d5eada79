import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Card, CardContent, CardHeader, CardTitle, Spinner, useFormat } from '@web/ui';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';
import { NewRequestButton } from '../new-request-button';
import { RequestProgress, RequestStatusBadge } from '../request-status-badge';

/**
 * On a project's page: the client requests sent for it (by a member, or by its template before the
 * due date), each with its state and "7 of 12", and a New request sent for this project.
 */
export function ProjectRequestsCard({ projectId, clientId }: { projectId: string; clientId: string }) {
  const canView = useCan('requests.view');
  const format = useFormat();
  const list = useQuery({
    ...trpc.requests.list.queryOptions({ projectId, pageSize: 20, sort: 'dueDate', direction: 'asc' }),
    enabled: canView,
  });
  if (!canView) return null;
  const rows = list.data?.rows ?? [];
  return (
    <Card aria-labelledby="project-requests-title">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id="project-requests-title">Client requests</CardTitle>
        <NewRequestButton clientId={clientId} projectId={projectId} />
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <div className="grid place-items-center p-4">
            <Spinner />
          </div>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-fg">
            Nothing asked of the client for this project yet. A request sent from here is linked to it, and
            the client gets a to-do for it in the portal.
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-border" aria-label="Requests of the project">
            {rows.map((r) => (
              <li key={r.id} className="grid gap-2 py-2 sm:grid-cols-[1fr_auto_10rem] sm:items-center">
                <span className="min-w-0">
                  <Link
                    to="/requests/$id"
                    params={{ id: r.id }}
                    className="font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {r.title}
                  </Link>
                  <span className="block text-xs text-muted-fg">
                    Due {format.date(r.dueDate)}
                    {r.origin === 'project_template' ? ' · sent by the project’s template' : ''}
                  </span>
                </span>
                <RequestStatusBadge status={r.displayStatus} />
                <RequestProgress done={r.progress.done} total={r.progress.total} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
