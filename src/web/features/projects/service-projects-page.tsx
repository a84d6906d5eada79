import { dueDateRulePreview, FREQUENCY_LABELS } from '@domain/services';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { PageHeader } from '@web/ui';
import { useCallback } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, RequirePermission, useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import type { TProjectsSearch } from './projects-search';
import { ProjectsView } from './projects-view';

const route = getRouteApi('/_main/admin/services/$id/projects');

const tabClass =
  'border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring border-transparent text-muted-fg hover:text-fg data-[status=active]:border-primary data-[status=active]:text-fg';

/** /admin/services/{id}/projects: every project of one service. */
export function ServiceProjectsPage() {
  return (
    <RequirePermission permission="services.view">
      <ServiceProjectsScreen />
    </RequirePermission>
  );
}

function ServiceProjectsScreen() {
  const { id } = route.useParams();
  const canView = useCan('projects.view');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: Partial<TProjectsSearch>) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true }),
    [navigate],
  );
  const service = useQuery({ ...trpc.services.get.queryOptions({ serviceId: id }), retry: false });
  if (service.error?.data?.code === 'NOT_FOUND') {
    return <RecordNotFound thing="service" back={{ to: '/admin/services', label: 'Back to services' }} />;
  }
  const s = service.data;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={s ? `${s.name} — projects` : 'Projects'}
        description={
          s
            ? `${s.code} · ${FREQUENCY_LABELS[s.frequency]} · due ${dueDateRulePreview(s.dueDateRule).toLowerCase()}`
            : undefined
        }
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Services', to: '/admin/services' },
          { label: s?.name ?? '…' },
        ]}
      />
      <nav aria-label="Service" className="flex gap-1 border-b border-border">
        <Link to="/admin/services/$id/clients" params={{ id }} className={tabClass}>
          Clients
        </Link>
        <Link to="/admin/services/$id/projects" params={{ id }} className={tabClass}>
          Projects
        </Link>
      </nav>
      {canView ? (
        <ProjectsView search={search} setSearch={setSearch} fixed={{ serviceId: id }} />
      ) : (
        <NoAccess message="Seeing a service's projects needs the right to view projects." />
      )}
    </div>
  );
}
