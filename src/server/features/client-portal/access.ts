import { TRPCError } from '@trpc/server';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { TPortalClientAccess } from '../../auth';
import type { TExecutor } from '../../db/client';
import { clients, clientUsers, documentFolders, documents, tasks } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { portalDocumentWhere, portalFolderIds } from '../documents';

// What a portal user may reach of one client. Every query here is scoped by the firm AND the client
// of ctx.access (portalClientProcedure checked the session reaches that client).
//
// Documents: what the portal shows is the documents feature's rule (portalFolderIds,
// portalDocumentWhere): a folder shows when it and every folder between it and the top are shared;
// a file when it is shared and its folder shows.

export const folderNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Folder not found' });
export const fileNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });
export const taskNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Task not found' });

/** The ids of the client's folders the portal shows (the top included), as a subquery. */
export const visibleFolderIds = (access: TPortalClientAccess): SQL =>
  portalFolderIds(access.orgId, access.clientId);

/** The condition for a file the portal shows (join documents; the folder check is a subquery). */
export const visibleDocument = (access: TPortalClientAccess): SQL =>
  portalDocumentWhere(access.orgId, access.clientId);

/** The client's top folder, or null before anyone has opened or uploaded to its documents. */
export async function portalRoot(db: TExecutor, access: TPortalClientAccess) {
  const [root] = await db
    .select()
    .from(documentFolders)
    .where(
      and(
        eq(documentFolders.orgId, access.orgId),
        eq(documentFolders.clientId, access.clientId),
        isNull(documentFolders.parentId),
        isNull(documentFolders.deletedAt),
      ),
    )
    .limit(1);
  return root ?? null;
}

/**
 * A folder the portal shows, with its path from the top (each crumb shown too, by the rule above).
 * Another client's folder, an internal one, one inside an internal one or in the trash: NOT_FOUND.
 */
export async function portalFolder(db: TExecutor, access: TPortalClientAccess, folderId: string) {
  const [folder] = await db
    .select()
    .from(documentFolders)
    .where(
      and(
        eq(documentFolders.orgId, access.orgId),
        eq(documentFolders.clientId, access.clientId),
        eq(documentFolders.id, folderId),
        sql`${documentFolders.id} in ${visibleFolderIds(access)}`,
      ),
    )
    .limit(1);
  if (!folder) throw folderNotFound();
  const result = await db.execute(sql`
    with recursive up as (
      select id, name, parent_id, 0 as depth from ${documentFolders}
      where org_id = ${access.orgId} and id = ${folderId}
      union all
      select f.id, f.name, f.parent_id, up.depth + 1 from ${documentFolders} f
      join up on f.id = up.parent_id and f.org_id = ${access.orgId}
      where up.depth < 64
    )
    select id, name from up order by depth desc`);
  const rows = rowsOf<{ id: string; name: string }>(result);
  return { folder, path: rows.map((r) => ({ id: r.id, name: r.name })) };
}

/** A file the portal shows (for download), else NOT_FOUND. */
export async function portalDocument(db: TExecutor, access: TPortalClientAccess, documentId: string) {
  const [doc] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), visibleDocument(access)))
    .limit(1);
  if (!doc) throw fileNotFound();
  return doc;
}

/**
 * One of the client's own tasks (forClient). A firm's internal task, another client's or a missing
 * one all answer NOT_FOUND: internal tasks never leave the server.
 */
export async function portalTask(db: TExecutor, access: TPortalClientAccess, taskId: string, lock = false) {
  const query = db
    .select()
    .from(tasks)
    .where(
      and(
        eq(tasks.orgId, access.orgId),
        eq(tasks.clientId, access.clientId),
        eq(tasks.forClient, true),
        eq(tasks.id, taskId),
      ),
    )
    .limit(1);
  const [task] = lock ? await query.for('update', { of: tasks }) : await query;
  if (!task) throw taskNotFound();
  return task;
}

/** The acting portal user's name and the client's, for notifications and the system log. */
export async function whoActs(db: TExecutor, access: TPortalClientAccess) {
  const [row] = await db
    .select({ userName: clientUsers.name, clientName: clients.name })
    .from(clientUsers)
    .innerJoin(clients, and(eq(clients.orgId, clientUsers.orgId), eq(clients.id, access.clientId)))
    .where(and(eq(clientUsers.orgId, access.orgId), eq(clientUsers.id, access.clientUserId)))
    .limit(1);
  return { userName: row?.userName ?? 'A client', clientName: row?.clientName ?? 'a client' };
}
