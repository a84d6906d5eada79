import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { TPortalState } from '../../../domain/documents';
import { documentFolders, documents } from '../../db/schema';

// What the client portal shows of a client's documents: the one rule behind the portal's own
// queries and every staff screen that says what the client sees.
//
// The client's top folder ("Documents") is the portal's top and always open. Below it a folder
// shows when it and every folder between it and the top are shared (visibleToPortal) and live: an
// internal folder hides everything inside it, whatever its sub-folders and files say. A file shows
// when it is shared itself and its folder shows. The firm vault never shows.
//
// Two forms of it live here side by side: SQL for the portal's queries (what leaves the server, a
// whole tree at once) and a pure one over a folder's path (staff screens and the share operation,
// which also need the folders that keep something hidden). portal-visibility.test.ts holds them
// to the same answers.

/** The ids of a client's folders the portal shows (the top included), as a subquery. */
export function portalFolderIds(orgId: string, clientId: string): SQL {
  return sql`(with recursive shown as (
      select f.id from ${documentFolders} f
      where f.org_id = ${orgId} and f.client_id = ${clientId}
        and f.parent_id is null and f.deleted_at is null
      union all
      select f.id from ${documentFolders} f join shown on f.parent_id = shown.id
      where f.org_id = ${orgId} and f.deleted_at is null and f.visible_to_portal
    ) select id from shown)`;
}

/** The condition for a file of the client the portal shows (on the documents table). */
export function portalDocumentWhere(orgId: string, clientId: string): SQL {
  return and(
    eq(documents.orgId, orgId),
    eq(documents.clientId, clientId),
    eq(documents.visibleToPortal, true),
    isNull(documents.deletedAt),
    sql`${documents.folderId} in ${portalFolderIds(orgId, clientId)}`,
  ) as SQL;
}

export type TReachFolder = { id: string; name: string; parentId: string | null; visibleToPortal: boolean };
export type TFolderRef = { id: string; name: string };
/** Whether the portal shows a folder, and the internal folders (at or above it) that keep it out. */
export type TPortalReach = { visible: boolean; hiddenBy: TFolderRef[] };

const NEVER: TPortalReach = { visible: false, hiddenBy: [] };

/**
 * The portal's reach of the last folder of `path` (the tree's top first, as pathOf answers it, every
 * folder live). Sharing something in that folder makes it reachable by sharing `hiddenBy` too.
 */
export function portalReach(clientId: string | null, path: readonly TReachFolder[]): TPortalReach {
  if (clientId === null || path.length === 0) return NEVER;
  const hiddenBy = path
    .filter((f) => f.parentId !== null && !f.visibleToPortal)
    .map((f) => ({ id: f.id, name: f.name }));
  return { visible: hiddenBy.length === 0, hiddenBy };
}

/** What the client sees of a folder or file (`shared`: its own flag) inside a folder of this reach. */
export function portalState(shared: boolean, inside: TPortalReach): TPortalState {
  if (!shared) return 'internal';
  return inside.visible ? 'visible' : 'hidden';
}

/**
 * What a move changes for the client, for its log entry: a folder or file (its own mark `shared`)
 * moved from inside the folder at the end of `from` into the one at the end of `to`.
 */
export function movedInPortal(
  item: { clientId: string | null; visibleToPortal: boolean },
  from: readonly TReachFolder[],
  to: readonly TReachFolder[],
) {
  const target = portalReach(item.clientId, to);
  const before = portalState(item.visibleToPortal, portalReach(item.clientId, from));
  const after = portalState(item.visibleToPortal, target);
  if (before === 'visible' && after !== 'visible') {
    return ` (the client no longer sees it: ${names(target.hiddenBy)} ${target.hiddenBy.length === 1 ? 'is' : 'are'} internal)`;
  }
  if (before !== 'visible' && after === 'visible') return ' (the client now sees it)';
  return '';
}

/** “A”, “A” and “B”, “A”, “B” and “C”. */
export function names(folders: readonly TFolderRef[]) {
  const quoted = folders.map((f) => `“${f.name}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/**
 * The reach of every folder of one tree, from its live folders (a folder whose parent is not among
 * them is out of the tree: deleted above, or never reached). For screens that list folders from
 * many places at once: the move picker, search results.
 */
export function reachOfTree(clientId: string | null, folders: readonly TReachFolder[]) {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const memo = new Map<string, TReachFolder[] | null>();
  const pathTo = (id: string, depth = 0): TReachFolder[] | null => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const folder = byId.get(id);
    let path: TReachFolder[] | null = null;
    if (folder && depth <= 64) {
      if (folder.parentId === null) path = [folder];
      else {
        const above = pathTo(folder.parentId, depth + 1);
        path = above ? [...above, folder] : null;
      }
    }
    memo.set(id, path);
    return path;
  };
  return (folderId: string): TPortalReach | null => {
    const path = pathTo(folderId);
    return path ? portalReach(clientId, path) : null;
  };
}
