import type { TProjectListInput } from '@domain/projects';
import { PROJECT_SORTS, PROJECT_STATUS_FILTERS } from '@domain/projects-constants';

/** A projects list's URL: page, sort, filters and the view, so a filtered view can be shared. */
export type TProjectsSearch = {
  page?: number;
  pageSize?: number;
  sort?: (typeof PROJECT_SORTS)[number];
  direction?: 'asc' | 'desc';
  search?: string;
  status?: (typeof PROJECT_STATUS_FILTERS)[number];
  /** Completed projects too, when no status is chosen (the default is open work). */
  completed?: boolean;
  clientId?: string;
  serviceId?: string;
  memberId?: string;
  periodKey?: string;
  dueFrom?: string;
  dueTo?: string;
  archived?: boolean;
  /** 'stages': the board by stage of one template (`templateId`), automations' board. */
  view?: 'list' | 'board' | 'stages';
  templateId?: string;
};

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
const oneOf = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? v : undefined);
const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined;

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseProjectsSearch(search: Record<string, unknown>): TProjectsSearch {
  const pageSize = positive(search.pageSize);
  return {
    page: positive(search.page),
    pageSize: pageSize ? Math.min(pageSize, 200) : undefined,
    sort: oneOf(PROJECT_SORTS, search.sort),
    direction: oneOf(['asc', 'desc'] as const, search.direction),
    search: text(search.search, 200),
    status: oneOf(PROJECT_STATUS_FILTERS, search.status),
    completed: search.completed === true ? true : undefined,
    clientId: uuid(search.clientId),
    serviceId: uuid(search.serviceId),
    memberId: uuid(search.memberId),
    periodKey: text(search.periodKey, 20),
    dueFrom: day(search.dueFrom),
    dueTo: day(search.dueTo),
    archived: search.archived === true ? true : undefined,
    view: oneOf(['list', 'board', 'stages'] as const, search.view),
    templateId: uuid(search.templateId),
  };
}

export const PROJECTS_PAGE_SIZE = 25;

/** The list query for a URL, with a fixed client or service when the list is scoped to one. */
export function projectsListInput(
  search: TProjectsSearch,
  fixed: { clientId?: string; serviceId?: string } = {},
): TProjectListInput {
  const { view: _view, templateId: _templateId, completed, ...rest } = search;
  const input: TProjectListInput = {
    ...rest,
    page: search.page ?? 1,
    pageSize: search.pageSize ?? PROJECTS_PAGE_SIZE,
    sort: search.sort ?? 'dueDate',
    direction: search.direction ?? 'asc',
    archived: search.archived ?? false,
    ...(completed && !search.status ? { includeCompleted: true } : {}),
    ...fixed,
  };
  if (input.dueFrom && input.dueTo && input.dueFrom > input.dueTo) input.dueTo = undefined;
  return input;
}
