import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants';
import { zInt, zNumber, zString } from './fields';

// Documents (/clients/{id}/documents, /vault/documents): one folder tree per client and one for the
// firm (the vault). The same schemas check the forms and the procedures.

/** How long a deleted file or folder stays restorable before the purge removes it for good. */
export const TRASH_RETENTION_DAYS = 30;
export { DOCUMENT_UPLOAD_PATH, documentDownloadPath } from './document-paths';
export const documentPreviewPath = (id: string) => `/api/documents/${id}/preview`;

/** Only these are ever shown inline (in the preview dialog); everything else is an attachment. */
export const PREVIEW_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
] as const;
export const isPreviewable = (contentType: string) =>
  (PREVIEW_CONTENT_TYPES as readonly string[]).includes(contentType);

/** Control characters never belong in a name (they break headers and listings). */
export const hasControlCharacter = (value: string) =>
  [...value].some((c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f;
  });

/**
 * A file's name is only ever a name: it never reaches a path on disk or a storage key, so
 * "../../etc/passwd" is a (strange) valid name. Control characters and blanks are refused.
 */
export const ZDocumentName = zString()
  .trim()
  .min(1, 'Enter a name')
  .max(255, 'A name must be at most 255 characters')
  .refine((v) => !hasControlCharacter(v), 'A name cannot contain control characters');

/** Folder names also exclude "/", which the default folder structure uses between levels. */
export const ZFolderName = ZDocumentName.refine(
  (v) => !v.includes('/'),
  'A folder name cannot contain "/"',
).refine((v) => v !== '.' && v !== '..', 'Choose another folder name');

/** Which tree: a client's, or the firm's vault when clientId is null. */
export const ZTreeRef = z.object({ clientId: z.uuid('Choose a client').nullable() });
export type TTreeRef = z.infer<typeof ZTreeRef>;

export const ZFolderRef = z.object({ folderId: z.uuid('Choose a folder') });
export const ZDocumentRef = z.object({ documentId: z.uuid('Choose a file') });

/** Opening a tree (its root when folderId is absent). */
export const ZFolderOpen = ZTreeRef.extend({ folderId: z.uuid('Choose a folder').optional() });

export const DOCUMENT_SORTS = ['name', 'date', 'size'] as const;
export type TDocumentSort = (typeof DOCUMENT_SORTS)[number];

export const ZDocumentListInput = z.object({
  folderId: z.uuid('Choose a folder'),
  page: zNumber().int().min(1, 'Page must be 1 or more').default(1),
  pageSize: zNumber()
    .int()
    .min(1, 'Page size must be at least 1')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
    .default(50),
  sort: z.enum(DOCUMENT_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type TDocumentListInput = z.infer<typeof ZDocumentListInput>;

export const ZDocumentSearchInput = ZTreeRef.extend({
  search: zString().trim().min(1, 'Enter part of a name').max(200, 'Search must be at most 200 characters'),
  limit: zNumber().int().min(1).max(MAX_PAGE_SIZE).default(50),
});

export const ZFolderCreate = z.object({ parentId: z.uuid('Choose a folder'), name: ZFolderName });
export type TFolderCreate = z.infer<typeof ZFolderCreate>;
export const ZFolderRename = z.object({ folderId: z.uuid(), name: ZFolderName });
export const ZDocumentRename = z.object({ documentId: z.uuid(), name: ZDocumentName });
export const ZFolderMove = z.object({ folderId: z.uuid(), targetId: z.uuid('Choose a folder') });
export const ZDocumentMove = z.object({ documentId: z.uuid(), targetId: z.uuid('Choose a folder') });
export const ZVisibility = z.object({ visibleToPortal: z.boolean() });
export const ZFolderVisibility = ZFolderRef.extend(ZVisibility.shape);
export const ZDocumentVisibility = ZDocumentRef.extend(ZVisibility.shape);
/**
 * What the client sees of a client's folder or file: `visible` (shared, and every folder above it
 * is shared), `internal` (not shared), `hidden` (marked shared, but a folder above it is internal,
 * so the portal does not show it). The server decides it; screens only show it.
 */
export const PORTAL_STATES = ['visible', 'internal', 'hidden'] as const;
export type TPortalState = (typeof PORTAL_STATES)[number];

/**
 * An upload's portal choice (the upload route's `share` query): `true` shares the new file (and the
 * folders above it, so the client reaches it), `false` keeps it internal; absent, it follows its folder.
 */
export const ZUploadShare = z.enum(['true', 'false']).transform((v) => v === 'true');

export const ZTrashRestore = z.object({ kind: z.enum(['folder', 'document']), id: z.uuid() });

/** The firm's default folders for a new client tree: "Returns/2026-27" makes a folder in a folder. */
export const MAX_DEFAULT_FOLDERS = 50;
export const ZDefaultFolderPath = zString()
  .trim()
  .min(1, 'A folder path cannot be blank')
  .max(500, 'A folder path is too long')
  .transform((v) =>
    v
      .split('/')
      .map((s) => s.trim())
      .filter(Boolean)
      .join('/'),
  )
  .refine((v) => v.length > 0, 'A folder path cannot be blank')
  .refine((v) => v.split('/').every((s) => ZFolderName.safeParse(s).success), 'Check the folder names');
export const ZDefaultClientFolders = z.object({
  folders: z
    .array(ZDefaultFolderPath)
    .max(MAX_DEFAULT_FOLDERS, `At most ${MAX_DEFAULT_FOLDERS} default folders`),
});
export type TDefaultClientFolders = z.infer<typeof ZDefaultClientFolders>;

/** Reads the setting from orgs.settings whatever was stored there. */
export function defaultClientFoldersOf(settings: Record<string, unknown> | null | undefined): string[] {
  const parsed = ZDefaultClientFolders.shape.folders.safeParse(settings?.defaultClientFolders);
  return parsed.success ? parsed.data : [];
}

/**
 * Whether files the firm accepts from a client request are shared with the client when they are
 * filed into the client's documents (orgs.settings.requestFilesShared). The client sent them, so by
 * default they see them in the portal's documents too; a firm that keeps its filing internal says so.
 */
export const ZRequestFiling = z.object({ shareWithClient: z.boolean() });
export type TRequestFiling = z.infer<typeof ZRequestFiling>;
export function requestFilingOf(settings: Record<string, unknown> | null | undefined): TRequestFiling {
  const raw = settings?.requestFilesShared;
  return { shareWithClient: typeof raw === 'boolean' ? raw : true };
}

/**
 * The firm's files as one list (the public API's GET /documents): every live file the caller may
 * see, oldest first, optionally one client's (`clientId`) or one folder's (`folderId`). The cursor
 * is the last row's id (ids are time-ordered), opaque to callers.
 */
export const ZDocumentPageInput = z.object({
  clientId: z.uuid('Choose a client').optional(),
  folderId: z.uuid('Choose a folder').optional(),
  cursor: z.uuid('The cursor is not one this list gave').optional(),
  pageSize: zNumber()
    .int()
    .min(1, 'Page size must be at least 1')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}`)
    .default(50),
});
export type TDocumentPageInput = z.infer<typeof ZDocumentPageInput>;

/** A file's metadata as the API answers it (list rows and GET /documents/{id}). */
export const ZDocumentMeta = z.object({
  id: z.uuid(),
  name: zString(),
  folderId: z.uuid(),
  /** Null for a file in the firm's vault. */
  clientId: z.uuid().nullable(),
  size: zInt(),
  contentType: zString(),
  version: zInt(),
  checksumSha256: zString().nullable(),
  visibleToPortal: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type TDocumentMeta = z.infer<typeof ZDocumentMeta>;
export const ZDocumentPage = z.object({ rows: z.array(ZDocumentMeta), nextCursor: z.uuid().nullable() });
