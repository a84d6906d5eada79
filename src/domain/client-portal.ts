import { z } from 'zod';
import { PORTAL_PAGE_SIZE, PORTAL_TASK_VIEWS } from './client-portal-constants';
import { MAX_PAGE_SIZE } from './constants';
import { zInt, zNumber, zString } from './fields';

export {
  isPortalTag,
  PORTAL_PAGE_SIZE,
  PORTAL_TASK_VIEWS,
  PORTAL_UPLOAD_PATH,
  portalDownloadPath,
  portalInvoicePdfPath,
  portalUploadUrl,
  type TPortalTaskView,
} from './client-portal-constants';

// The client portal's screens (/clientportal/{clientId}/…). Every procedure input also names the
// client (portalClientProcedure adds `clientId`); the same schemas check the forms.

const page = zNumber().int().min(1, 'Page must be 1 or more').default(1);
const pageSize = (fallback: number) =>
  zNumber()
    .int()
    .min(1, 'Page size must be at least 1')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
    .default(fallback);

/** A folder of the portal's documents; absent = the top (the client's shared documents). */
export const ZPortalFolderInput = z.object({
  folderId: z.uuid('This folder link is not valid').optional(),
  page,
  pageSize: pageSize(PORTAL_PAGE_SIZE),
});
export type TPortalFolderInput = z.input<typeof ZPortalFolderInput>;

export const ZPortalProjectList = z.object({ page, pageSize: pageSize(PORTAL_PAGE_SIZE) });

/** A tag in the path (/clientportal/{clientId}/tasks/{tag}): what the staff side calls a tag. */
export const ZPortalTag = zString().trim().min(1, 'Choose a tag').max(64, 'A tag is at most 64 characters');

export const ZPortalTaskList = z.object({
  view: z.enum(PORTAL_TASK_VIEWS).default('open'),
  tag: ZPortalTag.optional(),
  page,
  pageSize: pageSize(PORTAL_PAGE_SIZE),
});
export type TPortalTaskListInput = z.input<typeof ZPortalTaskList>;

export const ZPortalTaskRef = z.object({ taskId: z.uuid('This task link is not valid') });

export const ZPortalComment = ZPortalTaskRef.extend({
  body: zString()
    .trim()
    .min(1, 'Write a comment first')
    .max(5000, 'A comment must be at most 5,000 characters'),
});
export type TPortalComment = z.infer<typeof ZPortalComment>;

// The client's invoices (issue 35): issued invoices and credit notes, never drafts.
export const ZPortalInvoiceList = z.object({ page, pageSize: pageSize(PORTAL_PAGE_SIZE) });
export type TPortalInvoiceListInput = z.input<typeof ZPortalInvoiceList>;
export const ZPortalInvoiceRef = z.object({ invoiceId: z.uuid('This invoice link is not valid') });

/** The client's filing calendar (issue 39): one fiscal year, by the year it starts in. */
export const ZPortalCalendar = z.object({
  year: zInt().min(2000, 'Choose a year from 2000').max(2100, 'Choose a year up to 2100').optional(),
});
