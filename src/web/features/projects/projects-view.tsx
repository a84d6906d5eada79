import { PROJECT_STATUS_FILTERS } from '@domain/projects';
import { STATUS_DISPLAY } from '@domain/status';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Button,
  type DataTableColumn,
  DatePicker,
  EmptyState,
  Input,
  ListScreen,
  Select,
  StatusBadge,
  useFormat,
} from '@web/ui';
import { Columns3, FolderKanban, LayoutGrid, List, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { StageBoard } from '../automations/stage-board';
import { ClientPicker } from './client-picker';
import { Progress } from './project-progress';
import { ProjectsBoard } from './projects-board';
import { projectsListInput, type TProjectsSearch } from './projects-search';

export type TProjectRow = inferRouterOutputs<AppRouter>['projects']['list']['rows'][number];

const ALL = 'all';
const OPEN = 'open';

/**
 * The projects list and board with their filters, for /projects and the lists scoped to one
 * client or service (`fixed`). The URL holds the state; `setSearch` writes it.
 */
export function ProjectsView({
  search,
  setSearch,
  fixed = {},
  onCreate,
}: {
  search: TProjectsSearch;
  setSearch: (next: Partial<TProjectsSearch>) => void;
  fixed?: { clientId?: string; serviceId?: string };
  onCreate?: () => void;
}) {
  const format = useFormat();
  const input = projectsListInput(search, fixed);
  const board = search.view === 'board';
  const stages = search.view === 'stages';
  const list = useQuery({
    ...trpc.projects.list.queryOptions(input),
    placeholderData: keepPreviousData,
    enabled: !board && !stages,
  });
  const options = useQuery(trpc.projects.options.queryOptions());
  const [text, setText] = useState(search.search ?? '');
  const [period, setPeriod] = useState(search.periodKey ?? '');
  const currentSearch = search.search;
  const currentPeriod = search.periodKey;
  useEffect(() => {
    const value = text.trim() || undefined;
    const key = period.trim() || undefined;
    if (value === currentSearch && key === currentPeriod) return;
    const handle = setTimeout(() => setSearch({ search: value, periodKey: key, page: undefined }), 300);
    return () => clearTimeout(handle);
  }, [text, period, currentSearch, currentPeriod, setSearch]);

  const columns: DataTableColumn<TProjectRow>[] = [
    {
      id: 'name',
      header: 'Project',
      sortable: true,
      truncate: true,
      minWidth: 13,
      cell: (p) => <span className="font-medium text-fg">{p.name}</span>,
    },
    ...(fixed.clientId
      ? []
      : [
          {
            id: 'client',
            header: 'Client',
            sortable: true,
            truncate: true,
            minWidth: 9,
            cell: (p: TProjectRow) => p.client.name,
          },
        ]),
    ...(fixed.serviceId
      ? []
      : [
          {
            id: 'service',
            header: 'Service',
            // A recurring project's name starts with its service: the column is for wide screens.
            className: 'hidden 2xl:table-cell',
            truncate: true,
            minWidth: 6,
            cell: (p: TProjectRow) => p.service?.name ?? <span className="text-muted-fg">—</span>,
          },
        ]),
    {
      id: 'period',
      header: 'Period',
      className: 'hidden lg:table-cell',
      cell: (p) => <span className="font-mono text-xs">{p.periodKey ?? '—'}</span>,
    },
    {
      id: 'status',
      header: 'Status',
      sortable: true,
      cell: (p) => (
        <StatusBadge item={{ status: p.status, dueDate: p.dueDate, completedDate: p.completedDate }} />
      ),
    },
    { id: 'dueDate', header: 'Due', sortable: true, cell: (p) => format.date(p.dueDate) },
    {
      id: 'owner',
      header: 'Owner',
      className: 'hidden md:table-cell',
      cell: (p) => p.owner?.name ?? <span className="text-muted-fg">—</span>,
    },
    { id: 'progress', header: 'Progress', cell: (p) => <Progress {...p.progress} /> },
  ];

  const filtered = Boolean(
    search.search ||
      search.status ||
      search.completed ||
      (!fixed.clientId && search.clientId) ||
      (!fixed.serviceId && search.serviceId) ||
      search.memberId ||
      search.periodKey ||
      search.dueFrom ||
      search.dueTo ||
      search.archived,
  );
  const clearFilters = () => {
    setText('');
    setPeriod('');
    setSearch({
      search: undefined,
      status: undefined,
      completed: undefined,
      clientId: undefined,
      serviceId: undefined,
      memberId: undefined,
      periodKey: undefined,
      dueFrom: undefined,
      dueTo: undefined,
      archived: undefined,
      page: undefined,
    });
  };

  const toolbar = (
    <>
      <div className="relative w-full sm:w-56">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-fg"
        />
        <Input
          type="search"
          aria-label="Search projects"
          placeholder="Search projects…"
          className="pl-8"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {board ? null : (
        <Select
          aria-label="Status"
          className="w-36"
          value={search.status ?? (search.completed ? ALL : OPEN)}
          onValueChange={(v) =>
            setSearch({
              status: v === ALL || v === OPEN ? undefined : (v as TProjectsSearch['status']),
              completed: v === ALL ? true : undefined,
              page: undefined,
            })
          }
          options={[
            { value: OPEN, label: 'Open work' },
            { value: ALL, label: 'All statuses' },
            ...PROJECT_STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_DISPLAY[s].label })),
          ]}
        />
      )}
      {fixed.clientId ? null : (
        <ClientPicker
          aria-label="Client"
          className="w-48"
          placeholder="Any client"
          value={search.clientId}
          onChange={(clientId) => setSearch({ clientId: clientId ?? undefined, page: undefined })}
        />
      )}
      {fixed.serviceId ? null : (
        <Select
          aria-label="Service"
          className="w-40"
          value={search.serviceId ?? ALL}
          onValueChange={(v) => setSearch({ serviceId: v === ALL ? undefined : v, page: undefined })}
          options={[
            { value: ALL, label: 'All services' },
            ...(options.data?.services ?? []).map((s) => ({ value: s.id, label: s.name })),
          ]}
        />
      )}
      <Select
        aria-label="Member"
        className="w-40"
        value={search.memberId ?? ALL}
        onValueChange={(v) => setSearch({ memberId: v === ALL ? undefined : v, page: undefined })}
        options={[
          { value: ALL, label: 'Any member' },
          ...(options.data?.members ?? []).map((m) => ({ value: m.id, label: m.name })),
        ]}
      />
      <Input
        aria-label="Period"
        placeholder="Period, e.g. 2026-03"
        className="w-40"
        value={period}
        onChange={(e) => setPeriod(e.target.value)}
      />
      <DatePicker
        aria-label="Due from"
        placeholder="Due from"
        className="w-36"
        value={search.dueFrom}
        max={search.dueTo}
        onChange={(v) => setSearch({ dueFrom: v ?? undefined, page: undefined })}
      />
      <DatePicker
        aria-label="Due to"
        placeholder="Due to"
        className="w-36"
        value={search.dueTo}
        min={search.dueFrom}
        onChange={(v) => setSearch({ dueTo: v ?? undefined, page: undefined })}
      />
      <Select
        aria-label="Archived"
        className="w-36"
        value={search.archived ? 'archived' : 'live'}
        onValueChange={(v) => setSearch({ archived: v === 'archived' ? true : undefined, page: undefined })}
        options={[
          { value: 'live', label: 'Active' },
          { value: 'archived', label: 'Archived' },
        ]}
      />
      <fieldset className="ml-auto flex gap-1" aria-label="View">
        <Button
          variant={board || stages ? 'outline' : 'secondary'}
          aria-pressed={!board && !stages}
          onClick={() => setSearch({ view: undefined })}
        >
          <List aria-hidden />
          List
        </Button>
        <Button
          variant={board ? 'secondary' : 'outline'}
          aria-pressed={board}
          onClick={() => setSearch({ view: 'board' })}
        >
          <LayoutGrid aria-hidden />
          Board
        </Button>
        <Button
          variant={stages ? 'secondary' : 'outline'}
          aria-pressed={stages}
          onClick={() => setSearch({ view: 'stages' })}
        >
          <Columns3 aria-hidden />
          Stages
        </Button>
      </fieldset>
    </>
  );

  const empty = filtered ? (
    <EmptyState
      icon={Search}
      title="No projects match"
      message="Try other filters, or clear them."
      action={
        <Button variant="outline" onClick={clearFilters}>
          Clear filters
        </Button>
      }
    />
  ) : (
    <EmptyState
      icon={FolderKanban}
      title="No projects yet"
      message="Projects appear when a client takes a service with a project template, or when you create one."
      action={onCreate ? <Button onClick={onCreate}>New project</Button> : undefined}
    />
  );

  if (stages) {
    return (
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">{toolbar}</div>
        <StageBoard templateId={search.templateId} onTemplate={(templateId) => setSearch({ templateId })} />
      </div>
    );
  }
  if (board) {
    return (
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">{toolbar}</div>
        <ProjectsBoard
          input={{
            ...fixed,
            clientId: fixed.clientId ?? search.clientId,
            serviceId: fixed.serviceId ?? search.serviceId,
            memberId: search.memberId,
          }}
        />
      </div>
    );
  }
  return (
    <ListScreen
      label="Projects"
      url={{ search, setSearch }}
      query={input}
      list={list}
      columns={columns}
      getRowId={(p) => p.id}
      getRowLabel={(p) => p.name}
      rowLink={(p) => ({ to: '/projects/$id', params: { id: p.id } })}
      tools={toolbar}
      empty={empty}
    />
  );
}
