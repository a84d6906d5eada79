// The portal's task views and tag check, without zod: route files use them on the first page
// (client-portal.ts, with the schemas, re-exports them).
import { hasForbiddenCharacter } from './characters';

export const PORTAL_TASK_VIEWS = ['open', 'completed'] as const;
export type TPortalTaskView = (typeof PORTAL_TASK_VIEWS)[number];

/**
 * A tag in the path (/clientportal/{clientId}/tasks/{tag}) as `ZPortalTag` (client-portal.ts)
 * accepts it, without zod: the route answers 404 for one that could not exist.
 */
export function isPortalTag(value: string): boolean {
  if (hasForbiddenCharacter(value)) return false;
  const tag = value.trim();
  return tag.length >= 1 && tag.length <= 64;
}
