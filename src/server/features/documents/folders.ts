import { TRPCError } from '@trpc/server';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { defaultClientFoldersOf, type TDocumentListInput } from '../../../domain/documents';
import { TREE_SETUP_ACTION } from '../../../domain/system-log';
import { actorOf, type TActor, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { clientUsers, documentFolders, documents, members, orgs } from '../../db/schema';
import { audit } from '../system-log';
import { checkTree, liveFolder, treeLabel } from './access';
import { movedInPortal, portalReach, portalState, reachOfTree } from './portal-visibility';

const VAULT_ROOT_NAME = 'Vault';
const CLIENT_ROOT_NAME = 'Documents';

const rootWhere = (orgId: string, clientId: string | null) =>
  and(
    eq(documentFolders.orgId, orgId),
    clientId === null ? isNull(documentFolders.clientId) : eq(documentFolders.clientId, clientId),
    isNull(documentFolders.parentId),
  );

async function findRoot(db: TExecutor, orgId: string, clientId: string | null) {
  const [root] = await db.select().from(documentFolders).where(rootWhere(orgId, clientId)).limit(1);
  return root ?? null;
}

/**
 * The tree's root, created the first time the tree is opened together with the firm's default
 * folders for a client (orgs.settings.defaultClientFolders). Idempotent: two first openings at
 * once create one root (a unique index) and one set of folders.
 */
export async function openTree(db: TDb, scope: TScope, clientId: string | null) {
  const client = await checkTree(db, scope, clientId);
  return ensureTree(db, { orgId: scope.orgId, clientId, clientName: client?.name ?? null });
}

/**
 * openTree's work once the caller is known to reach the tree (the client portal creates a client's
 * tree this way on its first upload). Setting up a tree is the product's own doing, whoever's screen
 * or upload needed it first: its log entry names no one, and the home's Recent activity leaves it
 * out (HOUSEKEEPING_ACTIONS).
 */
export async function ensureTree(
  db: TDb,
  input: { orgId: string; clientId: string | null; clientName: string | null },
) {
  const { orgId, clientId } = input;
  const existing = await findRoot(db, orgId, clientId);
  if (existing) return existing;
  return db.transaction(async (tx) => {
    const [root] = await tx
      .insert(documentFolders)
      .values({
        orgId,
        clientId,
        parentId: null,
        name: clientId ? CLIENT_ROOT_NAME : VAULT_ROOT_NAME,
      })
      .onConflictDoNothing()
      .returning();
    if (!root) {
      const other = await findRoot(tx, orgId, clientId);
      if (!other) throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
      return other;
    }
    let created = 0;
    if (clientId) {
      const [org] = await tx.select({ settings: orgs.settings }).from(orgs).where(eq(orgs.id, orgId));
      const idOf = new Map<string, string>([['', root.id]]);
      for (const path of defaultClientFoldersOf(org?.settings)) {
        let parentPath = '';
        for (const name of path.split('/')) {
          const here = parentPath ? `${parentPath}/${name}` : name;
          const key = here.toLowerCase();
          if (!idOf.has(key)) {
            const [folder] = await tx
              .insert(documentFolders)
              .values({
                orgId,
                clientId,
                parentId: idOf.get(parentPath.toLowerCase()) ?? root.id,
                name,
              })
              .returning({ id: documentFolders.id });
            if (folder) idOf.set(key, folder.id);
            created += 1;
          }
          parentPath = here;
        }
      }
    }
    await audit(
      tx,
      { kind: 'system', orgId },
      {
        action: TREE_SETUP_ACTION,
        recordType: 'documentFolder',
        recordId: root.id,
        summary: `Set up ${treeLabel(input.clientName)}${created ? ` with ${created} default folder${created === 1 ? '' : 's'}` : ''}`,
      },
    );
    return root;
  });
}

/**
 * A folder named `name` at the top of a tree (`root`), made the first time a feature files into it
 * (task attachments, message attachments, signed agreements). Two first uses at once meet the
 * sibling-name unique index; the loser reads the winner's folder. `log` is the creation's system-log
 * entry (who, and why the folder is there).
 */
export async function topFolder(
  db: TDb,
  root: { id: string; orgId: string; clientId: string | null; name: string },
  folder: { name: string; visibleToPortal?: boolean; createdByMemberId?: string | null },
  log: { actor: TActor; why: string },
): Promise<string> {
  const find = async (ex: TExecutor) => {
    const [found] = await ex
      .select({ id: documentFolders.id })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, root.orgId),
          eq(documentFolders.parentId, root.id),
          isNull(documentFolders.deletedAt),
          sql`lower(${documentFolders.name}) = lower(${folder.name})`,
        ),
      )
      .limit(1);
    return found?.id ?? null;
  };
  const existing = await find(db);
  if (existing) return existing;
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(documentFolders)
      .values({
        orgId: root.orgId,
        clientId: root.clientId,
        parentId: root.id,
        name: folder.name,
        visibleToPortal: folder.visibleToPortal ?? false,
        createdByMemberId: folder.createdByMemberId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: documentFolders.id });
    if (!made) {
      const other = await find(tx);
      if (!other) throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
      return other;
    }
    await audit(tx, log.actor, {
      action: 'documents.folder.create',
      recordType: 'documentFolder',
      recordId: made.id,
      summary: `Created the folder “${folder.name}” in “${root.name}” ${log.why}`,
    });
    return made.id;
  });
}

const SORT = {
  name: [documents.name],
  date: [documents.updatedAt],
  size: [documents.size],
} as const;

/** A folder: where it is, its sub-folders, and one page of its files. */
export async function folderContents(db: TExecutor, scope: TScope, input: TDocumentListInput) {
  const { folder, path } = await liveFolder(db, scope, input.folderId);
  const reach = portalReach(folder.clientId, path);
  const where = and(
    eq(documents.orgId, scope.orgId),
    eq(documents.folderId, folder.id),
    isNull(documents.deletedAt),
  );
  const dir = input.direction === 'desc' ? desc : asc;
  const [subfolders, rows, [total]] = await Promise.all([
    db
      .select({
        id: documentFolders.id,
        name: documentFolders.name,
        visibleToPortal: documentFolders.visibleToPortal,
        updatedAt: documentFolders.updatedAt,
      })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, scope.orgId),
          eq(documentFolders.parentId, folder.id),
          isNull(documentFolders.deletedAt),
        ),
      )
      .orderBy(asc(documentFolders.name))
      .limit(1000),
    db
      .select({
        id: documents.id,
        name: documents.name,
        size: documents.size,
        contentType: documents.contentType,
        version: documents.currentVersion,
        visibleToPortal: documents.visibleToPortal,
        updatedAt: documents.updatedAt,
        uploadedBy: sql<
          string | null
        >`coalesce(nullif(trim(${members.firstName} || ' ' || ${members.lastName}), ''), ${members.email}, ${clientUsers.name} || ' (client)')`,
      })
      .from(documents)
      .leftJoin(
        members,
        and(eq(members.orgId, documents.orgId), eq(members.id, documents.uploadedByMemberId)),
      )
      .leftJoin(
        clientUsers,
        and(eq(clientUsers.orgId, documents.orgId), eq(clientUsers.id, documents.uploadedByClientUserId)),
      )
      .where(where)
      .orderBy(...SORT[input.sort].map((c) => dir(c)), dir(documents.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(documents).where(where),
  ]);
  return {
    folder: {
      id: folder.id,
      name: folder.name,
      clientId: folder.clientId,
      parentId: folder.parentId,
      visibleToPortal: folder.visibleToPortal,
      /** Whether the client sees this folder, and the internal folders that keep it from them. */
      portal: reach,
    },
    path: path.map(({ id, name, parentId }) => ({ id, name, parentId })),
    folders: subfolders.map((f) => ({ ...f, portal: portalState(f.visibleToPortal, reach) })),
    documents: {
      rows: rows.map((d) => ({ ...d, portal: portalState(d.visibleToPortal, reach) })),
      total: total?.n ?? 0,
      page: input.page,
      pageSize: input.pageSize,
    },
  };
}

/** A tree's live folders (each possibly under a deleted one), with what the portal rule needs. */
export function liveTreeFolders(db: TExecutor, orgId: string, clientId: string | null) {
  return db
    .select({
      id: documentFolders.id,
      parentId: documentFolders.parentId,
      name: documentFolders.name,
      visibleToPortal: documentFolders.visibleToPortal,
    })
    .from(documentFolders)
    .where(
      and(
        eq(documentFolders.orgId, orgId),
        clientId === null ? isNull(documentFolders.clientId) : eq(documentFolders.clientId, clientId),
        isNull(documentFolders.deletedAt),
      ),
    )
    .orderBy(asc(documentFolders.name))
    .limit(5000);
}

/**
 * The portal's reach of each folder of a client's tree, for lists of files from many folders (null
 * for a folder in the trash or under one).
 */
export async function clientTreeReach(db: TExecutor, orgId: string, clientId: string) {
  return reachOfTree(clientId, await liveTreeFolders(db, orgId, clientId));
}

/**
 * Every live folder of a tree (for the move picker) with whether the client sees it; folders under
 * a deleted one are left out.
 */
export async function treeFolders(db: TExecutor, scope: TScope, clientId: string | null) {
  await checkTree(db, scope, clientId);
  const rows = await liveTreeFolders(db, scope.orgId, clientId);
  const reachOf = reachOfTree(clientId, rows);
  return rows.flatMap(({ id, parentId, name }) => {
    const portal = reachOf(id);
    return portal ? [{ id, parentId, name, portal }] : [];
  });
}

const folderTaken = (name: string) =>
  new TRPCError({ code: 'CONFLICT', message: `A folder named “${name}” already exists here` });

export async function createFolder(
  db: TDb,
  scope: TScope,
  input: { parentId: string; name: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const { folder: parent } = await liveFolder(tx, scope, input.parentId);
      const [folder] = await tx
        .insert(documentFolders)
        .values({
          orgId: scope.orgId,
          clientId: parent.clientId,
          parentId: parent.id,
          name: input.name,
          // A client folder shared with the portal shares what is made inside it; the vault never does.
          visibleToPortal: parent.clientId !== null && parent.parentId !== null && parent.visibleToPortal,
          createdByMemberId: scope.memberId,
        })
        .returning();
      if (!folder) throw new Error('folder not created');
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.folder.create',
        recordType: 'documentFolder',
        recordId: folder.id,
        summary: `Created the folder “${folder.name}” in “${parent.name}”`,
      });
      return folder;
    })
    .catch((error) => {
      if (isUniqueViolation(error)) throw folderTaken(input.name);
      throw error;
    });
}

function notRoot(folder: { parentId: string | null }, what: string) {
  if (folder.parentId === null)
    throw new TRPCError({ code: 'BAD_REQUEST', message: `The top folder cannot be ${what}` });
}

export async function renameFolder(
  db: TDb,
  scope: TScope,
  input: { folderId: string; name: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const { folder } = await liveFolder(tx, scope, input.folderId);
      notRoot(folder, 'renamed');
      if (folder.name === input.name) return folder;
      const [after] = await tx
        .update(documentFolders)
        .set({ name: input.name })
        .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folder.id)))
        .returning();
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.folder.rename',
        recordType: 'documentFolder',
        recordId: folder.id,
        summary: `Renamed the folder “${folder.name}” to “${input.name}”`,
        changes: { name: { from: folder.name, to: input.name } },
      });
      return after ?? folder;
    })
    .catch((error) => {
      if (isUniqueViolation(error)) throw folderTaken(input.name);
      throw error;
    });
}

export async function moveFolder(
  db: TDb,
  scope: TScope,
  input: { folderId: string; targetId: string },
  meta: TRequestMeta,
) {
  return db
    .transaction(async (tx) => {
      const { folder, path: from } = await liveFolder(tx, scope, input.folderId);
      notRoot(folder, 'moved');
      const { folder: target, path } = await liveFolder(tx, scope, input.targetId);
      if (target.clientId !== folder.clientId) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'A folder moves only within the same documents',
        });
      }
      if (path.some((p) => p.id === folder.id)) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'A folder cannot move into itself' });
      }
      if (folder.parentId === target.id) return folder;
      const [after] = await tx
        .update(documentFolders)
        .set({ parentId: target.id })
        .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folder.id)))
        .returning();
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.folder.move',
        recordType: 'documentFolder',
        recordId: folder.id,
        summary: `Moved the folder “${folder.name}” into “${target.name}”${movedInPortal(
          folder,
          from.slice(0, -1),
          path,
        )}`,
        changes: { parentId: { from: folder.parentId, to: target.id } },
      });
      return after ?? folder;
    })
    .catch((error) => {
      if (isUniqueViolation(error)) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: 'The target folder already has a folder with this name',
        });
      }
      throw error;
    });
}

/** Into the trash: the folder and everything under it disappear until restored or purged. */
export async function deleteFolder(db: TDb, scope: TScope, folderId: string, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const { folder } = await liveFolder(tx, scope, folderId);
    notRoot(folder, 'deleted');
    await tx
      .update(documentFolders)
      .set({ deletedAt: new Date() })
      .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folder.id)));
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.folder.delete',
      recordType: 'documentFolder',
      recordId: folder.id,
      summary: `Moved the folder “${folder.name}” to the trash`,
    });
    return { id: folder.id, parentId: folder.parentId };
  });
}
