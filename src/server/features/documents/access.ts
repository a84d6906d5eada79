import { TRPCError } from '@trpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { documentFolders, documents } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { visibleClient } from '../clients';

export const folderNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Folder not found' });
export const documentNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

/**
 * May the caller open this tree? A client's tree follows the client (another firm's, a missing or,
 * for an "assigned clients only" role, an unassigned client answers NOT_FOUND); the firm's vault is
 * open to every member with the documents right.
 */
export async function checkTree(db: TExecutor, scope: TScope, clientId: string | null) {
  if (clientId === null) return null;
  return visibleClient(db, scope, clientId);
}

export type TFolderRow = typeof documentFolders.$inferSelect;
export type TCrumb = { id: string; name: string; parentId: string | null; visibleToPortal: boolean };

/** The folder's ancestors from the root down to the folder itself (one recursive query). */
export async function pathOf(db: TExecutor, orgId: string, folderId: string) {
  const result = await db.execute(sql`
    with recursive up as (
      select id, name, parent_id, visible_to_portal, deleted_at, 0 as depth from ${documentFolders}
      where org_id = ${orgId} and id = ${folderId}
      union all
      select f.id, f.name, f.parent_id, f.visible_to_portal, f.deleted_at, up.depth + 1
      from ${documentFolders} f
      join up on f.id = up.parent_id and f.org_id = ${orgId}
      where up.depth < 64
    )
    select id, name, parent_id, visible_to_portal, deleted_at, depth from up order by depth desc`);
  const rows = rowsOf<{
    id: string;
    name: string;
    parent_id: string | null;
    visible_to_portal: boolean;
    deleted_at: unknown;
  }>(result);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parentId: r.parent_id,
    visibleToPortal: r.visible_to_portal,
    deleted: r.deleted_at !== null,
  }));
}

/**
 * A folder the caller may use: in the firm, in a tree they may open, and neither it nor a folder
 * above it in the trash. Anything else answers NOT_FOUND.
 */
export async function liveFolder(db: TExecutor, scope: TScope, folderId: string) {
  const [folder] = await db
    .select()
    .from(documentFolders)
    .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folderId)))
    .limit(1);
  if (!folder || folder.deletedAt) throw folderNotFound();
  await checkTree(db, scope, folder.clientId).catch(() => {
    throw folderNotFound();
  });
  const path = await pathOf(db, scope.orgId, folderId);
  if (path.some((p) => p.deleted)) throw folderNotFound();
  return { folder, path: path.map(({ deleted: _, ...crumb }) => crumb) };
}

export type TDocumentRow = typeof documents.$inferSelect;

/** A live file the caller may use (its folder live and its tree open to them), else NOT_FOUND. */
export async function liveDocument(db: TExecutor, scope: TScope, documentId: string) {
  const [doc] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, documentId)))
    .limit(1);
  if (!doc || doc.deletedAt) throw documentNotFound();
  const folder = await liveFolder(db, scope, doc.folderId).catch(() => {
    throw documentNotFound();
  });
  return { doc, folder: folder.folder, path: folder.path };
}

/** Which tree a record belongs to, in words for the system log. */
export const treeLabel = (clientName: string | null | undefined) =>
  clientName ? `${clientName}'s documents` : 'the firm vault';
