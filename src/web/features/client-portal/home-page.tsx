import { greeting } from '@domain/greeting';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  cardLinkClasses,
  Skeleton,
  StatusBadge,
  useFormat,
} from '@web/ui';
import { Building2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { PortalOpenRequests } from '../requests/portal-open-requests';
import { FileRow, Progress, TaskRow } from './parts';

const route = getRouteApi('/clientportal/$clientId/');

/** The client's home: what is owed, what the firm needs, recent files, work in progress, and who the firm is. */
export function PortalHomePage() {
  const { clientId } = route.useParams();
  const home = useQuery(trpc.clientPortalHome.get.queryOptions({ clientId }));
  const me = useQuery(trpc.clientPortalProfile.me.queryOptions());
  const format = useFormat();
  if (!home.data) return <Skeleton className="h-64" />;
  const { openTasks, recentDocuments, projects, firm, client, billing } = home.data;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">
          {greeting()}
          {me.data ? `, ${me.data.name.split(' ')[0]}` : ''}
        </h1>
        <p className="text-sm text-muted-fg">{client.name}</p>
      </div>

      <PortalOpenRequests clientId={clientId} />

      {billing.hasInvoices ? (
        <Card>
          <CardHeader>
            <CardTitle>To pay</CardTitle>
            <Link to="/clientportal/$clientId/invoices" params={{ clientId }} className={cardLinkClasses}>
              All invoices
            </Link>
          </CardHeader>
          <CardContent className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1">
            <span className="text-2xl font-semibold tabular-nums" data-testid="home-outstanding">
              {format.moneyMinor(billing.outstanding)}
            </span>
            <span className={billing.overdueCount ? 'text-sm text-danger' : 'text-sm text-muted-fg'}>
              {billing.overdueCount
                ? `${format.number(billing.overdueCount)} ${billing.overdueCount === 1 ? 'invoice' : 'invoices'} overdue`
                : billing.outstanding
                  ? 'Nothing overdue'
                  : 'All paid. Thank you!'}
            </span>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>What we need from you</CardTitle>
          <Link to="/clientportal/$clientId/tasks" params={{ clientId }} className={cardLinkClasses}>
            All tasks
          </Link>
        </CardHeader>
        <CardContent>
          {openTasks.length ? (
            <ul className="divide-y divide-border">
              {openTasks.map((task) => (
                <TaskRow key={task.id} clientId={clientId} task={task} />
              ))}
            </ul>
          ) : (
            <p className="py-2 text-sm text-muted-fg">Nothing for now. We will let you know.</p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Recent documents</CardTitle>
          <Link to="/clientportal/$clientId/documents" params={{ clientId }} className={cardLinkClasses}>
            All documents
          </Link>
        </CardHeader>
        <CardContent>
          {recentDocuments.length ? (
            <ul className="divide-y divide-border">
              {recentDocuments.map((file) => (
                <FileRow key={file.id} clientId={clientId} file={file} />
              ))}
            </ul>
          ) : (
            <p className="py-2 text-sm text-muted-fg">No documents shared yet.</p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Projects in progress</CardTitle>
          <Link to="/clientportal/$clientId/projects" params={{ clientId }} className={cardLinkClasses}>
            All projects
          </Link>
        </CardHeader>
        <CardContent>
          {projects.length ? (
            <ul className="divide-y divide-border">
              {projects.map((p) => (
                <li key={p.id} className="flex flex-col gap-1.5 py-3">
                  <div className="flex items-start justify-between gap-3">
                    <span className="min-w-0 font-medium">{p.name}</span>
                    <StatusBadge item={p} className="shrink-0" />
                  </div>
                  <p className="text-xs text-muted-fg">
                    {p.dueDate ? `Due ${format.date(p.dueDate)}` : 'No due date'}
                  </p>
                  <Progress {...p.progress} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="py-2 text-sm text-muted-fg">No work in progress.</p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Your firm</CardTitle>
        </CardHeader>
        <CardContent className="flex items-start gap-3 text-sm">
          <Building2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-fg" />
          <div className="min-w-0">
            <p className="font-medium">{firm.name}</p>
            {firm.address ? <p className="text-muted-fg">{firm.address}</p> : null}
            {firm.contactName ? (
              <p className="mt-1">
                Your contact: <span className="font-medium">{firm.contactName}</span>
              </p>
            ) : null}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
