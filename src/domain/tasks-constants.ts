// The tasks list's vocabulary, without zod: the route files read their URL and check a tag in the
// path with it on the first page (tasks.ts, with the schemas, re-exports it).
import { hasForbiddenCharacter } from './characters';
import { STORED_STATUSES } from './status';

export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TTaskPriority = (typeof TASK_PRIORITIES)[number];

export const PRIORITY_LABELS: Record<TTaskPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};

/** 'mine': assigned to me; 'team': tasks of the clients I am on the team of; 'all': the firm's. */
export const TASK_VIEWS = ['mine', 'team', 'all'] as const;
export type TTaskView = (typeof TASK_VIEWS)[number];

export const TASK_STATUS_FILTERS = [...STORED_STATUSES, 'OVERDUE'] as const;
export type TTaskStatusFilter = (typeof TASK_STATUS_FILTERS)[number];

export const TASK_SORTS = ['dueDate', 'priority', 'createdAt', 'title', 'status', 'position'] as const;
export type TTaskSort = (typeof TASK_SORTS)[number];

export const TASKS_PAGE_SIZE = 25;

/**
 * A tag as `ZTaskTag` (tasks.ts) accepts it, without zod: /tasks/filters/{tag} answers 404 for a
 * tag that could not exist before the server is asked.
 */
export function isTaskTag(value: string): boolean {
  if (hasForbiddenCharacter(value)) return false;
  const tag = value.trim().toLowerCase();
  return tag.length >= 1 && tag.length <= 40 && TASK_TAG.test(tag);
}
const TASK_TAG = /^[^/?#\s][^/?#]*$/;
