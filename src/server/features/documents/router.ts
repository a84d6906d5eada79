import {
  ZDefaultClientFolders,
  ZDocumentListInput,
  ZDocumentMove,
  ZDocumentPageInput,
  ZDocumentRef,
  ZDocumentRename,
  ZDocumentSearchInput,
  ZDocumentVisibility,
  ZFolderCreate,
  ZFolderMove,
  ZFolderRef,
  ZFolderRename,
  ZFolderVisibility,
  ZRequestFiling,
  ZTrashRestore,
  ZTreeRef,
} from '../../../domain/documents';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { getDefaultFolders, getRequestFiling, setDefaultFolders, setRequestFiling } from './default-folders';
import { deleteDocument, documentVersionsOf, moveDocument, renameDocument, searchDocuments } from './files';
import {
  createFolder,
  deleteFolder,
  folderContents,
  moveFolder,
  openTree,
  renameFolder,
  treeFolders,
} from './folders';
import { documentMeta, documentPage } from './listing';
import { setDocumentVisibility, setFolderVisibility } from './sharing';
import { listTrash, restoreFromTrash } from './trash';

export const documentsRouter = router({
  /**
   * The tree's top folder, made (with the firm's default folders for a client) the first time the
   * tree is opened: a mutation because it may write.
   */
  open: permissionProcedure('documents.view')
    .input(ZTreeRef)
    .mutation(({ ctx, input }) => openTree(ctx.db, ctx.scope, input.clientId)),
  contents: permissionProcedure('documents.view')
    .input(ZDocumentListInput)
    .query(({ ctx, input }) => folderContents(ctx.db, ctx.scope, input)),
  folders: permissionProcedure('documents.view')
    .input(ZTreeRef)
    .query(({ ctx, input }) => treeFolders(ctx.db, ctx.scope, input.clientId)),
  search: permissionProcedure('documents.view')
    .input(ZDocumentSearchInput)
    .query(({ ctx, input }) => searchDocuments(ctx.db, ctx.scope, input)),
  /** Every live file the caller may see, a page at a time (the public API's GET /documents). */
  list: permissionProcedure('documents.view')
    .input(ZDocumentPageInput)
    .query(({ ctx, input }) => documentPage(ctx.db, ctx.scope, input)),
  /** One file's metadata (the public API's GET /documents/{id}). */
  get: permissionProcedure('documents.view')
    .input(ZDocumentRef)
    .query(({ ctx, input }) => documentMeta(ctx.db, ctx.scope, input.documentId)),
  versions: permissionProcedure('documents.view')
    .input(ZDocumentRef)
    .query(({ ctx, input }) => documentVersionsOf(ctx.db, ctx.scope, input.documentId)),
  trash: permissionProcedure('documents.view')
    .input(ZTreeRef)
    .query(({ ctx, input }) => listTrash(ctx.db, ctx.scope, input.clientId)),
  /** The upload limit, so the browser refuses an oversized file before sending it. */
  limits: permissionProcedure('documents.view').query(({ ctx }) => ({
    maxBytes: ctx.config.storage.maxBytes,
  })),
  createFolder: permissionProcedure('documents.create')
    .input(ZFolderCreate)
    .mutation(({ ctx, input }) => createFolder(ctx.db, ctx.scope, input, ctx.meta)),
  renameFolder: permissionProcedure('documents.edit')
    .input(ZFolderRename)
    .mutation(({ ctx, input }) => renameFolder(ctx.db, ctx.scope, input, ctx.meta)),
  moveFolder: permissionProcedure('documents.edit')
    .input(ZFolderMove)
    .mutation(({ ctx, input }) => moveFolder(ctx.db, ctx.scope, input, ctx.meta)),
  setFolderVisibility: permissionProcedure('documents.edit')
    .input(ZFolderVisibility)
    .mutation(({ ctx, input }) => setFolderVisibility(ctx.db, ctx.scope, input, ctx.meta)),
  deleteFolder: permissionProcedure('documents.delete')
    .input(ZFolderRef)
    .mutation(({ ctx, input }) => deleteFolder(ctx.db, ctx.scope, input.folderId, ctx.meta)),
  rename: permissionProcedure('documents.edit')
    .input(ZDocumentRename)
    .mutation(({ ctx, input }) => renameDocument(ctx.db, ctx.scope, input, ctx.meta)),
  move: permissionProcedure('documents.edit')
    .input(ZDocumentMove)
    .mutation(({ ctx, input }) => moveDocument(ctx.db, ctx.scope, input, ctx.meta)),
  setVisibility: permissionProcedure('documents.edit')
    .input(ZDocumentVisibility)
    .mutation(({ ctx, input }) => setDocumentVisibility(ctx.db, ctx.scope, input, ctx.meta)),
  delete: permissionProcedure('documents.delete')
    .input(ZDocumentRef)
    .mutation(({ ctx, input }) => deleteDocument(ctx.db, ctx.scope, input.documentId, ctx.meta)),
  restore: permissionProcedure('documents.delete')
    .input(ZTrashRestore)
    .mutation(({ ctx, input }) => restoreFromTrash(ctx.db, ctx.scope, input, ctx.meta)),
  /** The firm setting behind a new client's folders (edited on /admin/settings/org). */
  defaultFolders: permissionProcedure('settings.view').query(({ ctx }) =>
    getDefaultFolders(ctx.db, ctx.scope),
  ),
  setDefaultFolders: permissionProcedure('settings.edit')
    .input(ZDefaultClientFolders)
    .mutation(({ ctx, input }) => setDefaultFolders(ctx.db, ctx.scope, input, ctx.meta)),
  requestFiling: permissionProcedure('settings.view').query(({ ctx }) => getRequestFiling(ctx.db, ctx.scope)),
  setRequestFiling: permissionProcedure('settings.edit')
    .input(ZRequestFiling)
    .mutation(({ ctx, input }) => setRequestFiling(ctx.db, ctx.scope, input, ctx.meta)),
});
