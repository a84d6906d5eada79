import { getRouteApi } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { NoAccess, useCan } from '../shell/access';
import { ProjectDialog } from './project-dialog';
import type { TProjectsSearch } from './projects-search';
import { ProjectsView } from './projects-view';

const route = getRouteApi('/_main/clients/$id/projects');

/** /clients/{id}/projects: the client's projects (the client layout shows the header and tabs). */
export function ClientProjectsPage() {
  const { id } = route.useParams();
  const canView = useCan('projects.view');
  const canCreate = useCan('projects.create');
  const [creating, setCreating] = useState(false);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: Partial<TProjectsSearch>) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true }),
    [navigate],
  );
  if (!canView) return <NoAccess message="Your role does not include projects." />;
  return (
    <div className="flex flex-col gap-3">
      {canCreate ? (
        <div className="flex justify-end">
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            New project
          </Button>
        </div>
      ) : null}
      <ProjectDialog open={creating} onOpenChange={setCreating} fixed={{ clientId: id }} />
      <ProjectsView
        search={search}
        setSearch={setSearch}
        fixed={{ clientId: id }}
        onCreate={canCreate ? () => setCreating(true) : undefined}
      />
    </div>
  );
}
