import { z } from 'zod';
import { zString } from './fields';

/**
 * A signed link lets the browser fetch a file route itself (a link, a frame, an image), so big
 * files stream to disk instead of into page memory. It is short-lived and names one route and one
 * object: the exact path and query it was issued for.
 */
export const SIGNED_LINK_TTL_MS = 5 * 60_000;
/** The query parameter a signed link travels in. */
export const SIGNED_LINK_PARAM = 'link';

/** What a link may be used for: each file route accepts links of its own purpose only. */
export const LINK_PURPOSES = [
  'document.download',
  'document.preview',
  'folder.zip',
  'clients.export',
  'clients.importErrors',
  'systemLog.export',
  'leave.attachmentDownload',
  'leave.attachmentPreview',
  'firmExport.download',
  'reports.export',
  'billing.invoicesExport',
  'billing.accountingExport',
  'billing.invoicePdf',
  'payments.export',
  'billing.statementPdf',
  'requests.fileDownload',
  'requests.filePreview',
  'messages.attachmentDownload',
] as const;
export type TLinkPurpose = (typeof LINK_PURPOSES)[number];

/** The route (path and query, as the web app builds it) a link is asked for. */
export const ZIssueLink = z.object({
  path: zString()
    .max(4000)
    .regex(/^\/api\//, 'Not a file of this app'),
});
export type TIssueLink = z.input<typeof ZIssueLink>;
