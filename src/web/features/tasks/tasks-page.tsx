import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { PageHeader } from '@web/ui';
import { useCallback } from 'react';
import { NoAccess, useCan } from '../shell/access';
import type { TTasksSearch } from './tasks-search';
import { TasksView } from './tasks-view';

const tasksRoute = getRouteApi('/_main/tasks/');
const tagRoute = getRouteApi('/_main/tasks/filters/$tag');
const clientTasksRoute = getRouteApi('/_main/clients/$id/tasks');
const clientToDoRoute = getRouteApi('/_main/clients/$id/client-tasks');

const noAccess = (
  <NoAccess message="Your role does not include the firm's tasks. Ask the firm owner if you need them." />
);

/** The routes that show a task list; their search params are all `parseTasksSearch`'s. */
type TTasksListPath = '/tasks/' | '/tasks/filters/$tag' | '/clients/$id/tasks' | '/clients/$id/client-tasks';

/** Search params are replaced, not pushed: filters and the open task do not pile up in history. */
function useSetSearch(from: TTasksListPath) {
  const navigate = useNavigate({ from });
  return useCallback(
    (next: Partial<TTasksSearch>) => navigate({ search: (prev) => ({ ...prev, ...next }), replace: true }),
    [navigate],
  );
}

/** /tasks: my tasks, my clients' tasks, or the firm's. */
export function TasksPage() {
  const canView = useCan('tasks.view');
  const search = tasksRoute.useSearch();
  const setSearch = useSetSearch('/tasks/');
  if (!canView) return noAccess;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Tasks' }]}
        title="Tasks"
        description="What is due, who has it, and what is waiting for review."
      />
      <TasksView scope={{}} search={search} setSearch={setSearch} />
    </div>
  );
}

/** /tasks/filters/{tag}: the same list, filtered by one tag. */
export function TagTasksPage() {
  const canView = useCan('tasks.view');
  const { tag } = tagRoute.useParams();
  const search = tagRoute.useSearch();
  const setSearch = useSetSearch('/tasks/filters/$tag');
  if (!canView) return noAccess;
  const label = tag.toLowerCase();
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Tasks', to: '/tasks' }, { label: `#${label}` }]}
        title={`Tasks tagged “${label}”`}
      />
      <TasksView scope={{ tag: label }} search={search} setSearch={setSearch} />
    </div>
  );
}

/** /clients/{id}/tasks: the firm's work for this client. */
export function ClientTasksTab() {
  const canView = useCan('tasks.view');
  const { id } = clientTasksRoute.useParams();
  const search = clientTasksRoute.useSearch();
  const setSearch = useSetSearch('/clients/$id/tasks');
  if (!canView) return noAccess;
  return <TasksView scope={{ clientId: id, forClient: false }} search={search} setSearch={setSearch} />;
}

/** /clients/{id}/client-tasks: what the client has to do (the portal shows it to them). */
export function ClientToDoTab() {
  const canView = useCan('tasks.view');
  const { id } = clientToDoRoute.useParams();
  const search = clientToDoRoute.useSearch();
  const setSearch = useSetSearch('/clients/$id/client-tasks');
  if (!canView) return noAccess;
  return <TasksView scope={{ clientId: id, forClient: true }} search={search} setSearch={setSearch} />;
}
