// The portal's task views, tag check and file paths, without zod: route files and the portal home
// use them on the first page (client-portal.ts, with the schemas, re-exports them).
import { hasForbiddenCharacter } from './characters';

/** The portal's lists page by 20. */
export const PORTAL_PAGE_SIZE = 20;

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

// The portal's file routes: plain HTTP because they stream, authenticated by the portal cookie only.
export const PORTAL_UPLOAD_PATH = '/api/clientportal/upload';

/** Where a portal upload goes: a folder (the top when absent), or a task it is attached to. */
export const portalUploadUrl = (target: { clientId: string; folderId?: string; taskId?: string }) => {
  const query = new URLSearchParams({ clientId: target.clientId });
  if (target.folderId) query.set('folderId', target.folderId);
  if (target.taskId) query.set('taskId', target.taskId);
  return `${PORTAL_UPLOAD_PATH}?${query}`;
};

export const portalDownloadPath = (clientId: string, documentId: string) =>
  `/api/clientportal/${clientId}/documents/${documentId}/download`;

/** The invoice as a PDF, opened in the browser (the same document the firm sends). */
export const portalInvoicePdfPath = (clientId: string, invoiceId: string) =>
  `/api/clientportal/${clientId}/invoices/${invoiceId}/pdf`;
