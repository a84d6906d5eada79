import type { TTaskListInput } from '@domain/tasks';
import {
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUS_FILTERS,
  TASK_VIEWS,
  TASKS_PAGE_SIZE,
  type TTaskPriority,
  type TTaskStatusFilter,
  type TTaskView,
} from '@domain/tasks-constants';

/**
 * The task lists' search params: view, filters, sort, page, list or board, and the open task
 * (`?task={id}`, so any screen can link to /tasks?task={id}). Multi-valued filters are comma lists.
 */
export type TTasksSearch = {
  view?: TTaskView;
  layout?: 'board';
  status?: string;
  /** Completed tasks too, when no status is chosen (the default is open work). */
  completed?: boolean;
  priority?: string;
  assigneeId?: string;
  reviewerId?: string;
  clientId?: string;
  projectId?: string;
  tag?: string;
  dueFrom?: string;
  dueTo?: string;
  search?: string;
  sort?: (typeof TASK_SORTS)[number];
  dir?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
  task?: string;
};

/** What a screen fixes about its list (a client's tab, a tag's page). */
export type TTaskScope = { clientId?: string; forClient?: boolean; tag?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
const oneOf = <T extends string>(values: readonly T[], v: unknown) =>
  values.includes(v as T) ? (v as T) : undefined;
const uuid = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? v : undefined);
const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : undefined);
/** A comma list keeping only known values, or undefined. */
const list = <T extends string>(values: readonly T[], v: unknown) => {
  if (typeof v !== 'string') return undefined;
  const kept = v.split(',').filter((x): x is T => values.includes(x as T));
  return kept.length ? [...new Set(kept)].join(',') : undefined;
};

export const splitList = <T extends string>(values: readonly T[], v: string | undefined): T[] =>
  v ? v.split(',').filter((x): x is T => values.includes(x as T)) : [];

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseTasksSearch(search: Record<string, unknown>): TTasksSearch {
  const text = typeof search.search === 'string' ? search.search.slice(0, 200) : undefined;
  const tag = typeof search.tag === 'string' ? search.tag.trim().toLowerCase().slice(0, 40) : undefined;
  return {
    view: oneOf(TASK_VIEWS, search.view),
    layout: search.layout === 'board' ? 'board' : undefined,
    status: list(TASK_STATUS_FILTERS, search.status),
    completed: search.completed === true ? true : undefined,
    priority: list(TASK_PRIORITIES, search.priority),
    assigneeId: uuid(search.assigneeId),
    reviewerId: uuid(search.reviewerId),
    clientId: uuid(search.clientId),
    projectId: uuid(search.projectId),
    tag: tag || undefined,
    dueFrom: day(search.dueFrom),
    dueTo: day(search.dueTo),
    search: text || undefined,
    sort: oneOf(TASK_SORTS, search.sort),
    dir: oneOf(['asc', 'desc'] as const, search.dir),
    page: positive(search.page),
    pageSize: positive(search.pageSize) && Math.min(positive(search.pageSize) ?? 0, 200),
    task: uuid(search.task),
  };
}

/** The default view: my own work on /tasks; everything on a client's or a tag's page. */
export const defaultView = (scope: TTaskScope): TTaskView => (scope.clientId || scope.tag ? 'all' : 'mine');

export function tasksListInput(search: TTasksSearch, scope: TTaskScope): TTaskListInput {
  const status = splitList<TTaskStatusFilter>(TASK_STATUS_FILTERS, search.status);
  const priority = splitList<TTaskPriority>(TASK_PRIORITIES, search.priority);
  const tag = scope.tag ?? search.tag;
  const clientId = scope.clientId ?? search.clientId;
  return {
    view: search.view ?? defaultView(scope),
    sort: { field: search.sort ?? 'dueDate', dir: search.dir ?? 'asc' },
    page: search.page ?? 1,
    pageSize: search.pageSize ?? TASKS_PAGE_SIZE,
    ...(status.length ? { status } : search.completed ? { includeCompleted: true } : {}),
    ...(priority.length ? { priority } : {}),
    ...(search.assigneeId ? { assigneeId: search.assigneeId } : {}),
    ...(search.reviewerId ? { reviewerId: search.reviewerId } : {}),
    ...(clientId ? { clientId } : {}),
    ...(search.projectId ? { projectId: search.projectId } : {}),
    ...(scope.forClient !== undefined ? { forClient: scope.forClient } : {}),
    ...(tag ? { tag } : {}),
    ...(search.dueFrom ? { dueFrom: search.dueFrom } : {}),
    ...(search.dueTo && (!search.dueFrom || search.dueFrom <= search.dueTo) ? { dueTo: search.dueTo } : {}),
    ...(search.search ? { search: search.search } : {}),
  };
}

/** The board's columns: one list call per stored status, batched into one request. */
export const BOARD_PAGE_SIZE = 50;
