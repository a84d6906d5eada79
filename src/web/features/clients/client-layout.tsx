import { CLIENT_TYPE_LABELS } from '@domain/clients';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet } from '@tanstack/react-router';
import { Badge, PageHeader, Spinner, TabNav, tabClasses } from '@web/ui';
import { trpc } from '../../lib/trpc';
import { ClientRequestsSummary } from '../requests/flow/client-requests-summary';
import { NewRequestButton } from '../requests/new-request-button';
import { NoAccess, useCan } from '../shell/access';

const route = getRouteApi('/_main/clients/$id');

const TABS = [
  { to: '/clients/$id', label: 'Profile', exact: true },
  { to: '/clients/$id/services', label: 'Services', exact: false },
  { to: '/clients/$id/projects', label: 'Projects', exact: false },
  { to: '/clients/$id/team', label: 'Team', exact: false },
  { to: '/clients/$id/documents', label: 'Documents', exact: false },
  { to: '/clients/$id/tasks', label: 'Tasks', exact: false },
  { to: '/clients/$id/client-tasks', label: 'Client to-dos', exact: false },
  { to: '/clients/$id/client-users', label: 'Portal users', exact: false },
  { to: '/clients/$id/requests', label: 'Requests', exact: false },
  { to: '/clients/$id/messages', label: 'Messages', exact: false },
  { to: '/clients/$id/billing', label: 'Billing', exact: false },
] as const;

/** The client's header and tabs; each tab is its own route under /clients/{id}. */
export function ClientLayout() {
  const { id } = route.useParams();
  const canView = useCan('clients.view');
  const canBill = useCan('billing.view');
  const canRequest = useCan('requests.view');
  const client = useQuery({ ...trpc.clients.get.queryOptions({ clientId: id }), enabled: canView });
  if (!canView) return <NoAccess message="Your role does not include the firm's clients." />;
  if (!client.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  const c = client.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Clients', to: '/clients' }, { label: c.name }]}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {c.name}
            <span className="font-mono text-sm font-normal text-muted-fg">{c.code}</span>
            {c.archivedAt ? <Badge tone="grey">Archived</Badge> : null}
            {c.status === 'inactive' ? <Badge tone="grey">Inactive</Badge> : null}
          </span>
        }
        description={`${CLIENT_TYPE_LABELS[c.type]}${c.group ? ` · ${c.group.name}` : ''}`}
        actions={
          <>
            <ClientRequestsSummary clientId={id} />
            <NewRequestButton clientId={id} />
          </>
        }
      />
      <TabNav label="Client sections">
        {TABS.filter(
          (tab) => (tab.label !== 'Billing' || canBill) && (tab.label !== 'Requests' || canRequest),
        ).map((tab) => (
          <Link
            key={tab.to}
            to={tab.to}
            params={{ id }}
            activeOptions={{ exact: tab.exact }}
            className={tabClasses}
          >
            {tab.label}
            {tab.label === 'Team' ? <span className="text-xs text-muted-fg">{c.counts.team}</span> : null}
            {tab.label === 'Services' ? (
              <span className="text-xs text-muted-fg">{c.counts.services}</span>
            ) : null}
          </Link>
        ))}
      </TabNav>
      <Outlet />
    </div>
  );
}
