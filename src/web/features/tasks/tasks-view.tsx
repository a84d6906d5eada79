import { PRIORITY_LABELS, TASK_VIEWS, type TTaskFormInput, type TTaskView } from '@domain/tasks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Avatar,
  Badge,
  Button,
  type DataTableColumn,
  EmptyState,
  Input,
  ListScreen,
  StatusBadge,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  useFormat,
} from '@web/ui';
import { Kanban, ListChecks, List as ListIcon, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { useProfile } from '../shell/use-profile';
import { TaskBoard } from './task-board';
import { TaskBulkActions, TaskStatusMenu } from './task-bulk-actions';
import { TaskCreateDialog } from './task-create-dialog';
import { TaskDrawer } from './task-drawer';
import { TasksFilters } from './tasks-filters';
import { defaultView, type TTaskScope, type TTasksSearch, tasksListInput } from './tasks-search';
import { type TTaskRow, useTasksRefresh } from './use-tasks';

const VIEW_LABELS: Record<TTaskView, string> = { mine: 'My tasks', team: 'My clients', all: 'All tasks' };

export type TTasksViewProps = {
  scope: TTaskScope;
  search: TTasksSearch;
  setSearch: (next: Partial<TTasksSearch>) => void;
};

/** The task list every screen shares: views, filters, list or board, quick add, and the drawer. */
export function TasksView({ scope, search, setSearch }: TTasksViewProps) {
  const canCreate = useCan('tasks.create');
  const input = tasksListInput(search, scope);
  const view = input.view ?? defaultView(scope);
  const board = search.layout === 'board';
  const [creating, setCreating] = useState(false);
  const profile = useProfile();
  const open = (id: string) => setSearch({ task: id });

  // What a new task starts with here: this client, this tag, me when in my own view.
  const defaults: Partial<TTaskFormInput> = {
    ...(scope.clientId ? { clientId: scope.clientId } : {}),
    ...(scope.forClient ? { forClient: true } : {}),
    ...(scope.tag ? { tags: [scope.tag] } : {}),
    ...(view === 'mine' ? { assigneeIds: [profile.id] } : {}),
  };

  const toolbar = (
    <div className="flex flex-wrap items-center gap-3">
      {scope.clientId ? null : (
        <TabsList aria-label="Which tasks">
          {TASK_VIEWS.map((v) => (
            <TabsTrigger key={v} value={v}>
              {VIEW_LABELS[v]}
            </TabsTrigger>
          ))}
        </TabsList>
      )}
      <div className="ml-auto flex items-center gap-2">
        <fieldset className="flex rounded-md border border-border">
          <legend className="sr-only">Layout</legend>
          <Button
            variant={board ? 'ghost' : 'secondary'}
            size="sm"
            aria-pressed={!board}
            onClick={() => setSearch({ layout: undefined })}
          >
            <ListIcon aria-hidden />
            List
          </Button>
          <Button
            variant={board ? 'secondary' : 'ghost'}
            size="sm"
            aria-pressed={board}
            onClick={() => setSearch({ layout: 'board', page: undefined })}
          >
            <Kanban aria-hidden />
            Board
          </Button>
        </fieldset>
        {canCreate ? (
          <Button size="sm" onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            New task
          </Button>
        ) : null}
      </div>
    </div>
  );
  const tasks = (
    <>
      {canCreate ? <QuickAdd defaults={defaults} /> : null}
      {board ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <TasksFilters search={search} scope={scope} setSearch={setSearch} board />
          </div>
          <TaskBoard input={input} onOpen={open} />
        </>
      ) : (
        <TasksTable scope={scope} search={search} setSearch={setSearch} onCreate={() => setCreating(true)} />
      )}
    </>
  );
  const dialogs = (
    <>
      <TaskCreateDialog
        open={creating}
        onOpenChange={setCreating}
        defaults={defaults}
        onCreated={(id) => {
          setCreating(false);
          open(id);
        }}
      />
      <TaskDrawer taskId={search.task} onClose={() => setSearch({ task: undefined })} />
    </>
  );

  // A client's tasks have no views; elsewhere the tasks below are the selected view's tab panel.
  if (scope.clientId) {
    return (
      <div className="flex flex-col gap-3">
        {toolbar}
        {tasks}
        {dialogs}
      </div>
    );
  }
  return (
    <Tabs
      value={view}
      onValueChange={(v) => setSearch({ view: v as TTaskView, page: undefined })}
      className="flex flex-col gap-3"
    >
      {toolbar}
      {/* Not a tab stop of its own: what it holds (quick add, filters) is reached by Tab anyway. */}
      <TabsContent value={view} tabIndex={-1} className="flex flex-col gap-3 pt-0">
        {tasks}
      </TabsContent>
      {dialogs}
    </Tabs>
  );
}

/** Title and Enter: the fastest way to write a task down; details come later in the drawer. */
function QuickAdd({ defaults }: { defaults: Partial<TTaskFormInput> }) {
  const refresh = useTasksRefresh();
  const [title, setTitle] = useState('');
  const create = useMutation(
    trpc.tasks.create.mutationOptions({
      onSuccess: async () => {
        setTitle('');
        toast.success('Task added');
        await refresh();
      },
    }),
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const value = title.trim();
        if (value && !create.isPending) create.mutate({ ...defaults, title: value });
      }}
      className="flex items-center gap-2"
    >
      <Input
        aria-label="Quick add a task"
        placeholder="Add a task: type a title and press Enter"
        value={title}
        maxLength={300}
        onChange={(e) => setTitle(e.target.value)}
      />
    </form>
  );
}

/** The piece's sort says `direction`; the tasks URL, and the links into it, say `dir`. */
function withDir(next: Partial<TTasksSearch> & { direction?: 'asc' | 'desc' }): Partial<TTasksSearch> {
  const { direction, ...rest } = next;
  return direction ? { ...rest, dir: direction } : rest;
}

function TasksTable({ scope, search, setSearch, onCreate }: TTasksViewProps & { onCreate: () => void }) {
  const canEdit = useCan('tasks.edit');
  const format = useFormat();
  const input = tasksListInput(search, scope);
  const list = useQuery({ ...trpc.tasks.list.queryOptions(input), placeholderData: keepPreviousData });

  const columns: DataTableColumn<TTaskRow>[] = [
    {
      id: 'title',
      header: 'Title',
      sortable: true,
      // Titles wrap: the narrower minimum leaves the other columns whole at 1280 px.
      className: 'whitespace-normal min-w-48',
      cell: (t) => <span className="font-medium text-fg">{t.title}</span>,
      after: (t) => (
        <>
          {t.forClient ? <Badge tone="primary">Client</Badge> : null}
          {t.tags.slice(0, 3).map((tag) => (
            <Link
              key={tag}
              to="/tasks/filters/$tag"
              params={{ tag }}
              aria-label={`Tasks tagged ${tag}`}
              className="rounded-md focus-visible:outline-2 focus-visible:outline-ring"
            >
              <Badge tone="outline" className="hover:bg-muted">
                {tag}
              </Badge>
            </Link>
          ))}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortable: true,
      cell: (t) => (canEdit ? <TaskStatusMenu task={t} /> : <StatusBadge status={t.displayStatus} />),
    },
    {
      id: 'priority',
      header: 'Priority',
      sortable: true,
      sortDescFirst: true,
      cell: (t) => PRIORITY_LABELS[t.priority],
    },
    {
      id: 'dueDate',
      header: 'Due',
      sortable: true,
      cell: (t) => (t.dueDate ? format.date(t.dueDate) : <span className="text-muted-fg">—</span>),
    },
    ...(scope.clientId
      ? []
      : [
          {
            id: 'client',
            header: 'Client',
            truncate: true,
            cell: (t: TTaskRow) => t.client?.name ?? <span className="text-muted-fg">—</span>,
          },
        ]),
    {
      id: 'assignees',
      header: 'Assignees',
      cell: (t) =>
        t.assignees.length ? (
          <span className="flex -space-x-1" title={t.assignees.map((a) => a.name).join(', ')}>
            {t.assignees.slice(0, 4).map((a) => (
              <Avatar key={a.id} name={a.name} size="sm" />
            ))}
          </span>
        ) : (
          <span className="text-muted-fg">—</span>
        ),
    },
    {
      id: 'checklist',
      header: 'Checklist',
      cell: (t) =>
        t.checklist.total ? (
          <span className="text-muted-fg tabular-nums">
            {t.checklist.done}/{t.checklist.total}
          </span>
        ) : null,
    },
    {
      id: 'createdAt',
      header: 'Added',
      sortable: true,
      sortDescFirst: true,
      className: 'hidden lg:table-cell',
      cell: (t) => <span className="text-muted-fg">{format.date(t.createdAt)}</span>,
    },
  ];

  const filtered = Boolean(
    search.search ||
      search.status ||
      search.priority ||
      search.assigneeId ||
      search.reviewerId ||
      search.dueFrom ||
      search.dueTo,
  );
  return (
    <ListScreen
      label="Tasks"
      url={{ search, setSearch: (next) => setSearch(withDir(next)) }}
      query={{ ...input, sort: input.sort?.field, direction: input.sort?.dir }}
      list={list}
      columns={columns}
      getRowId={(t) => t.id}
      getRowLabel={(t) => t.title}
      rowLink={(t) => ({ to: '.', search: (prev) => ({ ...prev, task: t.id }), replace: true })}
      bulkActions={canEdit ? (ids, clear) => <TaskBulkActions ids={ids} onDone={clear} /> : undefined}
      tools={
        <>
          <TasksFilters search={search} scope={scope} setSearch={setSearch} board={false} />
          {list.data?.totalCapped ? (
            <span className="ml-auto text-xs text-muted-fg">
              About {format.number(list.data.total)} tasks: narrow the filters for an exact count
            </span>
          ) : null}
        </>
      }
      empty={
        filtered ? (
          <EmptyState icon={Search} title="No tasks match" message="Try other words, or clear the filters." />
        ) : (
          <EmptyState
            icon={ListChecks}
            title="No tasks here yet"
            message="Type a title above and press Enter, or open the full form."
            action={<Button onClick={onCreate}>New task</Button>}
          />
        )
      }
    />
  );
}
