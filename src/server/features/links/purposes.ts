import { TRPCError } from '@trpc/server';
import { isPreviewable } from '../../../domain/documents';
import type { TPermission } from '../../../domain/permissions';
import type { TLinkPurpose } from '../../../domain/signed-links';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { visibleInvoice } from '../billing';
import { ownImport, visibleClient } from '../clients';
import { downloadableVersion, liveFolder } from '../documents';
import { downloadableExport } from '../firm-export';
import { visibleLeaveAttachment } from '../leave';
import { staffAttachment } from '../messages';
import { visibleItemFile } from '../requests';

const UUID = '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';

type TLinkable = {
  purpose: TLinkPurpose;
  /** The route's path; its groups are the ids the check needs. */
  pattern: RegExp;
  /** The route's own permission (config.auth.staff), checked before the object. */
  permission: TPermission | null;
  /** The route's check on the object, without serving (or logging) anything. */
  check?: (db: TExecutor, scope: TScope, ids: string[], query: URLSearchParams) => Promise<unknown>;
};

const versionOf = (query: URLSearchParams) => {
  const raw = query.get('version');
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 31 - 1)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose a version of the file from its history' });
  return n;
};

/**
 * Every staff file route a link can open, with the same rules the route applies: a link is issued
 * only to someone the route would serve at that moment, and the route checks again when it is used.
 */
export const LINKABLE: TLinkable[] = [
  {
    purpose: 'document.download',
    pattern: new RegExp(`^/api/documents/${UUID}/download$`),
    permission: 'documents.view',
    check: (db, scope, [id = ''], query) =>
      downloadableVersion(db, scope, { documentId: id, version: versionOf(query) }),
  },
  {
    purpose: 'document.preview',
    pattern: new RegExp(`^/api/documents/${UUID}/preview$`),
    permission: 'documents.view',
    async check(db, scope, [id = ''], query) {
      const { version } = await downloadableVersion(db, scope, { documentId: id, version: versionOf(query) });
      if (!isPreviewable(version.contentType))
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only PDFs and images can be previewed' });
    },
  },
  {
    purpose: 'folder.zip',
    pattern: new RegExp(`^/api/documents/folders/${UUID}/zip$`),
    permission: 'documents.view',
    check: (db, scope, [id = '']) => liveFolder(db, scope, id),
  },
  {
    purpose: 'clients.export',
    pattern: /^\/api\/clients\/export\.(?:csv|xlsx)$/,
    permission: 'clients.view',
  },
  {
    purpose: 'clients.importErrors',
    pattern: new RegExp(`^/api/clients/import/${UUID}/errors\\.csv$`),
    permission: 'clients.create',
    check: (db, scope, [id = '']) => ownImport(db, scope, id),
  },
  { purpose: 'systemLog.export', pattern: /^\/api\/systemlog\/export\.csv$/, permission: 'systemLog.view' },
  {
    purpose: 'reports.export',
    pattern: /^\/api\/reports\/(?:client|team|services)\/export\.(?:csv|xlsx)$/,
    permission: 'reports.view',
  },
  {
    purpose: 'billing.invoicesExport',
    pattern: /^\/api\/billing\/invoices\/export\.(?:csv|xlsx)$/,
    permission: 'billing.view',
  },
  {
    purpose: 'billing.accountingExport',
    pattern: /^\/api\/billing\/export\/accounting$/,
    permission: 'billing.view',
  },
  {
    purpose: 'billing.invoicePdf',
    pattern: new RegExp(`^/api/billing/invoices/${UUID}/pdf$`),
    permission: 'billing.view',
    check: (db, scope, [id = '']) => visibleInvoice(db, scope, id),
  },
  {
    purpose: 'payments.export',
    pattern: /^\/api\/billing\/payments\/export\.(?:csv|xlsx)$/,
    permission: 'billing.view',
  },
  {
    purpose: 'billing.statementPdf',
    pattern: new RegExp(`^/api/billing/clients/${UUID}/statement\\.pdf$`),
    permission: 'billing.view',
    check: (db, scope, [id = '']) => visibleClient(db, scope, id),
  },
  {
    purpose: 'leave.attachmentDownload',
    pattern: new RegExp(`^/api/leave/attachments/${UUID}/download$`),
    permission: null,
    check: (db, scope, [id = '']) => visibleLeaveAttachment(db, scope, id, 'download'),
  },
  {
    purpose: 'leave.attachmentPreview',
    pattern: new RegExp(`^/api/leave/attachments/${UUID}/preview$`),
    permission: null,
    check: (db, scope, [id = '']) => visibleLeaveAttachment(db, scope, id, 'preview'),
  },
  {
    purpose: 'requests.fileDownload',
    pattern: new RegExp(`^/api/requests/files/${UUID}/download$`),
    permission: 'requests.view',
    check: (db, scope, [id = '']) => visibleItemFile(db, scope, id, 'download'),
  },
  {
    purpose: 'requests.filePreview',
    pattern: new RegExp(`^/api/requests/files/${UUID}/preview$`),
    permission: 'requests.view',
    check: (db, scope, [id = '']) => visibleItemFile(db, scope, id, 'preview'),
  },
  {
    purpose: 'messages.attachmentDownload',
    pattern: new RegExp(`^/api/messages/attachments/${UUID}/download$`),
    permission: 'clients.view',
    check: (db, scope, [id = '']) => staffAttachment(db, scope, id),
  },
  {
    purpose: 'firmExport.download',
    pattern: new RegExp(`^/api/firm-exports/${UUID}/download$`),
    permission: null,
    check: (db, scope, [id = '']) => downloadableExport(db, scope, id),
  },
];

/** The route a path names and the ids in it, or null when no file route takes links there. */
export function linkableOf(pathname: string) {
  for (const linkable of LINKABLE) {
    const match = linkable.pattern.exec(pathname);
    if (match) return { linkable, ids: match.slice(1).map((id) => id.toLowerCase()) };
  }
  return null;
}
