import { PORTAL_PAGE_SIZE, type TPortalTaskView } from '@domain/client-portal';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Card, cn, EmptyState, Pagination, ScrollStrip, Skeleton } from '@web/ui';
import { CheckSquare } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { TaskRow } from './parts';
import { PortalTaskDrawer } from './task-drawer';
import type { TPortalTaskSearch } from './task-search';

const allRoute = getRouteApi('/clientportal/$clientId/tasks/');
const tagRoute = getRouteApi('/clientportal/$clientId/tasks/$tag');

export function PortalTasksPage() {
  const { clientId } = allRoute.useParams();
  const search = allRoute.useSearch();
  return <PortalTasks clientId={clientId} search={search} />;
}

export function PortalTaggedTasksPage() {
  const { clientId, tag } = tagRoute.useParams();
  const search = tagRoute.useSearch();
  return <PortalTasks clientId={clientId} tag={tag} search={search} />;
}

const chip =
  'inline-flex shrink-0 items-center rounded-full border border-border px-3 py-1 text-xs hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring';

/** The client's to-dos: open or completed, one tag at a time, each opening in a panel. */
function PortalTasks({
  clientId,
  tag,
  search,
}: {
  clientId: string;
  tag?: string;
  search: TPortalTaskSearch;
}) {
  const navigate = useNavigate();
  const view: TPortalTaskView = search.view ?? 'open';
  const page = search.page ?? 1;
  const list = useQuery({
    ...trpc.clientPortalTasks.list.queryOptions({ clientId, view, tag, page, pageSize: PORTAL_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const setSearch = (next: TPortalTaskSearch) =>
    void navigate({
      to: tag ? '/clientportal/$clientId/tasks/$tag' : '/clientportal/$clientId/tasks',
      params: tag ? { clientId, tag } : { clientId },
      search: next,
    });
  const tabs: { view: TPortalTaskView; label: string }[] = [
    { view: 'open', label: 'To do' },
    { view: 'completed', label: 'Completed' },
  ];
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold tracking-tight">{tag ? `Tasks: ${tag}` : 'Tasks'}</h1>
      <div role="tablist" aria-label="Which tasks" className="flex gap-1 rounded-lg bg-muted p-1">
        {tabs.map((t) => (
          <button
            key={t.view}
            type="button"
            role="tab"
            aria-selected={view === t.view}
            onClick={() => setSearch(t.view === 'open' ? {} : { view: t.view })}
            className={cn(
              'flex-1 rounded-md px-3 py-1.5 text-sm text-muted-fg focus-visible:outline-2 focus-visible:outline-ring',
              view === t.view && 'bg-surface font-medium text-fg shadow-xs',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      {list.data?.tags.length ? (
        <ScrollStrip className="-mx-4">
          <nav aria-label="Tags" className="flex gap-2 overflow-x-auto px-4 pb-1">
            <Link
              to="/clientportal/$clientId/tasks"
              params={{ clientId }}
              search={view === 'completed' ? { view } : {}}
              className={cn(chip, !tag && 'border-primary bg-primary/10 font-medium text-primary')}
            >
              All
            </Link>
            {list.data.tags.map((t) => (
              <Link
                key={t}
                to="/clientportal/$clientId/tasks/$tag"
                params={{ clientId, tag: t }}
                search={view === 'completed' ? { view } : {}}
                className={cn(chip, tag === t && 'border-primary bg-primary/10 font-medium text-primary')}
              >
                {t}
              </Link>
            ))}
          </nav>
        </ScrollStrip>
      ) : null}
      {!list.data ? (
        <Skeleton className="h-48" />
      ) : list.data.total === 0 ? (
        <Card>
          <EmptyState
            icon={CheckSquare}
            title={view === 'open' ? 'Nothing to do right now' : 'No completed tasks yet'}
            message={view === 'open' ? 'When your firm needs something from you, it shows here.' : undefined}
          />
        </Card>
      ) : (
        <Card className="px-4">
          <ul className="divide-y divide-border">
            {list.data.rows.map((task) => (
              <TaskRow key={task.id} clientId={clientId} task={task} tag={tag} view={view} />
            ))}
          </ul>
          {list.data.total > PORTAL_PAGE_SIZE ? (
            <Pagination
              page={page}
              pageSize={PORTAL_PAGE_SIZE}
              total={list.data.total}
              onPageChange={(p) => setSearch({ ...search, page: p })}
              className="px-0"
            />
          ) : null}
        </Card>
      )}
      <PortalTaskDrawer
        clientId={clientId}
        taskId={search.task}
        onClose={() => setSearch({ ...search, task: undefined })}
      />
    </div>
  );
}
