// The projects list's vocabulary, without zod: route files read their URL with it on the first page
// (projects.ts, with the schemas, re-exports it).
import { STORED_STATUSES } from './status';

export const PROJECT_STATUS_FILTERS = [...STORED_STATUSES, 'OVERDUE'] as const;

export const PROJECT_SORTS = ['dueDate', 'name', 'client', 'status', 'createdAt'] as const;
