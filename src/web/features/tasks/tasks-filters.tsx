import { STATUS_DISPLAY } from '@domain/status';
import { PRIORITY_LABELS, TASK_PRIORITIES, TASK_STATUS_FILTERS } from '@domain/tasks';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  DatePicker,
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
  Input,
  Select,
} from '@web/ui';
import { ChevronDown, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { splitList, type TTaskScope, type TTasksSearch } from './tasks-search';

const ALL = 'all';

function MultiFilter<T extends string>(props: {
  label: string;
  values: readonly T[];
  labels: (v: T) => string;
  selected: T[];
  onChange: (next: T[]) => void;
}) {
  const count = props.selected.length;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by what it shows ("Status 2 chosen"), so a voice user can say what they see. */}
        <Button variant="outline">
          {props.label}
          {count ? (
            <span className="rounded bg-primary/10 px-1 text-xs text-primary">
              {count}
              <span className="sr-only"> chosen</span>
            </span>
          ) : null}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel>{props.label}</DropdownMenuLabel>
        {props.values.map((v) => (
          <DropdownMenuCheckboxItem
            key={v}
            checked={props.selected.includes(v)}
            onSelect={(e) => e.preventDefault()}
            onCheckedChange={(on) =>
              props.onChange(on ? [...props.selected, v] : props.selected.filter((s) => s !== v))
            }
          >
            {props.labels(v)}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The list's filters; every change goes to the URL (and back to page 1). */
export function TasksFilters({
  search,
  scope,
  setSearch,
  board,
}: {
  search: TTasksSearch;
  scope: TTaskScope;
  setSearch: (next: Partial<TTasksSearch>) => void;
  board: boolean;
}) {
  const options = useQuery(trpc.tasks.options.queryOptions());
  const canViewClients = useCan('clients.view');
  const clients = useQuery({
    ...trpc.clients.list.queryOptions({ pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: !scope.clientId && canViewClients,
  });
  const set = (next: Partial<TTasksSearch>) => setSearch({ ...next, page: undefined });

  // The search box updates the URL (and the query) once typing pauses.
  const [text, setText] = useState(search.search ?? '');
  const current = search.search;
  useEffect(() => {
    const value = text.trim() || undefined;
    if (value === current) return;
    const handle = setTimeout(() => setSearch({ search: value, page: undefined }), 300);
    return () => clearTimeout(handle);
  }, [text, current, setSearch]);

  const members = options.data?.members ?? [];
  const filtered = Boolean(
    search.search ||
      search.status ||
      search.completed ||
      search.priority ||
      search.assigneeId ||
      search.reviewerId ||
      search.clientId ||
      search.projectId ||
      search.dueFrom ||
      search.dueTo ||
      (!scope.tag && search.tag),
  );
  return (
    <>
      <div className="relative w-full sm:w-60">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-fg"
        />
        <Input
          type="search"
          aria-label="Search tasks"
          placeholder="Search titles…"
          className="pl-8"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {board ? null : (
        <MultiFilter
          label="Status"
          values={TASK_STATUS_FILTERS}
          labels={(s) => STATUS_DISPLAY[s].label}
          selected={splitList(TASK_STATUS_FILTERS, search.status)}
          onChange={(next) => set({ status: next.length ? next.join(',') : undefined })}
        />
      )}
      {board || search.status ? null : (
        <Checkbox
          label="Show completed"
          checked={search.completed === true}
          onCheckedChange={(on) => set({ completed: on === true ? true : undefined })}
        />
      )}
      <MultiFilter
        label="Priority"
        values={TASK_PRIORITIES}
        labels={(p) => PRIORITY_LABELS[p]}
        selected={splitList(TASK_PRIORITIES, search.priority)}
        onChange={(next) => set({ priority: next.length ? next.join(',') : undefined })}
      />
      <Select
        aria-label="Assignee"
        className="w-40"
        value={search.assigneeId ?? ALL}
        onValueChange={(v) => set({ assigneeId: v === ALL ? undefined : v })}
        options={[
          { value: ALL, label: 'Any assignee' },
          ...members.map((m) => ({ value: m.id, label: m.name })),
        ]}
      />
      <Select
        aria-label="Reviewer"
        className="w-40"
        value={search.reviewerId ?? ALL}
        onValueChange={(v) => set({ reviewerId: v === ALL ? undefined : v })}
        options={[
          { value: ALL, label: 'Any reviewer' },
          ...members.map((m) => ({ value: m.id, label: m.name })),
        ]}
      />
      {scope.clientId || !canViewClients ? null : (
        <Select
          aria-label="Client"
          className="w-44"
          value={search.clientId ?? ALL}
          onValueChange={(v) => set({ clientId: v === ALL ? undefined : v, projectId: undefined })}
          options={[
            { value: ALL, label: 'Any client' },
            ...(clients.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
      )}
      {scope.tag ? null : (
        <Select
          aria-label="Tag"
          className="w-36"
          value={search.tag ?? ALL}
          onValueChange={(v) => set({ tag: v === ALL ? undefined : v })}
          options={[
            { value: ALL, label: 'Any tag' },
            ...(search.tag && !options.data?.tags.includes(search.tag)
              ? [{ value: search.tag, label: search.tag }]
              : []),
            ...(options.data?.tags ?? []).map((t) => ({ value: t, label: t })),
          ]}
        />
      )}
      <DatePicker
        aria-label="Due from"
        placeholder="Due from"
        className="w-36"
        value={search.dueFrom ?? null}
        max={search.dueTo}
        onChange={(v) => set({ dueFrom: v ?? undefined })}
      />
      <DatePicker
        aria-label="Due to"
        placeholder="Due to"
        className="w-36"
        value={search.dueTo ?? null}
        min={search.dueFrom}
        onChange={(v) => set({ dueTo: v ?? undefined })}
      />
      {filtered ? (
        <Button
          variant="ghost"
          onClick={() => {
            setText('');
            set({
              search: undefined,
              status: undefined,
              completed: undefined,
              priority: undefined,
              assigneeId: undefined,
              reviewerId: undefined,
              clientId: undefined,
              projectId: undefined,
              dueFrom: undefined,
              dueTo: undefined,
              ...(scope.tag ? {} : { tag: undefined }),
            });
          }}
        >
          Clear filters
        </Button>
      ) : null}
    </>
  );
}
