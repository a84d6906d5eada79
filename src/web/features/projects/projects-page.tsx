import { getRouteApi } from '@tanstack/react-router';
import { Button, PageHeader } from '@web/ui';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { NoAccess, useCan } from '../shell/access';
import { ProjectDialog } from './project-dialog';
import type { TProjectsSearch } from './projects-search';
import { ProjectsView } from './projects-view';

const route = getRouteApi('/_main/projects/');

/** /projects: the firm's projects across clients, as a list or a board. */
export function ProjectsPage() {
  const canView = useCan('projects.view');
  const canCreate = useCan('projects.create');
  const [creating, setCreating] = useState(false);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: Partial<TProjectsSearch>) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true }),
    [navigate],
  );
  if (!canView)
    return <NoAccess message="Your role does not include projects. Ask the firm owner if you need them." />;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Projects' }]}
        title="Projects"
        description="Work for clients: each period of a recurring service, and one-off jobs."
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New project
            </Button>
          ) : null
        }
      />
      <ProjectDialog open={creating} onOpenChange={setCreating} />
      <ProjectsView
        search={search}
        setSearch={setSearch}
        onCreate={canCreate ? () => setCreating(true) : undefined}
      />
    </div>
  );
}
