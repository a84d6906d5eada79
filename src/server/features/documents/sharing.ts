import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { documentFolders, documents } from '../../db/schema';
import { audit } from '../system-log';
import { liveDocument, liveFolder } from './access';
import { portalReach, type TFolderRef } from './portal-visibility';

// Portal sharing of a client's folders and files. Sharing something makes the way to it visible:
// the internal folders above it are shared in the same transaction, each with its own log entry,
// so nothing is ever marked shared while the client cannot reach it because of a step someone
// forgot. Making something internal touches only it: what lies inside keeps its own mark and the
// screens show it as hidden by the folder (see portal-visibility.ts).

const vaultIsInternal = (what: 'folders' | 'files') =>
  new TRPCError({
    code: 'BAD_REQUEST',
    message: `The firm vault is internal: its ${what} are never shown in the client portal`,
  });

export function refuseVaultSharing(clientId: string | null, what: 'folders' | 'files') {
  if (clientId === null) throw vaultIsInternal(what);
}

/**
 * Shares the internal folders that keep `target` (a file's or folder's name, for the log) from the
 * portal: `folders` is the reach's hiddenBy of the place it is in. Answers the folders it shared.
 */
export async function openWayTo(
  tx: TExecutor,
  scope: TScope,
  meta: TRequestMeta,
  folders: readonly TFolderRef[],
  target: string,
): Promise<TFolderRef[]> {
  const shared: TFolderRef[] = [];
  for (const folder of folders) {
    const [changed] = await tx
      .update(documentFolders)
      .set({ visibleToPortal: true })
      .where(
        and(
          eq(documentFolders.orgId, scope.orgId),
          eq(documentFolders.id, folder.id),
          eq(documentFolders.visibleToPortal, false),
        ),
      )
      .returning({ id: documentFolders.id });
    if (!changed) continue;
    shared.push(folder);
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.folder.visibility',
      recordType: 'documentFolder',
      recordId: folder.id,
      summary: `Shared the folder “${folder.name}” with the client portal, so the client sees “${target}”`,
      changes: { visibleToPortal: { from: false, to: true } },
    });
  }
  return shared;
}

/** Shares a folder (and the folders above it) or makes it internal (it alone). */
export async function setFolderVisibility(
  db: TDb,
  scope: TScope,
  input: { folderId: string; visibleToPortal: boolean },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { folder, path } = await liveFolder(tx, scope, input.folderId);
    refuseVaultSharing(folder.clientId, 'folders');
    const above = input.visibleToPortal ? portalReach(folder.clientId, path.slice(0, -1)).hiddenBy : [];
    const alsoShared = await openWayTo(tx, scope, meta, above, folder.name);
    if (folder.visibleToPortal !== input.visibleToPortal) {
      await tx
        .update(documentFolders)
        .set({ visibleToPortal: input.visibleToPortal })
        .where(and(eq(documentFolders.orgId, scope.orgId), eq(documentFolders.id, folder.id)));
      await audit(tx, actorOf(scope, meta), {
        action: 'documents.folder.visibility',
        recordType: 'documentFolder',
        recordId: folder.id,
        summary: input.visibleToPortal
          ? `Shared the folder “${folder.name}” with the client portal`
          : `Stopped sharing the folder “${folder.name}” in the client portal: the client no longer sees it or anything in it`,
        changes: { visibleToPortal: { from: folder.visibleToPortal, to: input.visibleToPortal } },
      });
    }
    return { ...folder, visibleToPortal: input.visibleToPortal, alsoShared };
  });
}

/** Shares a file (and the folders above it) or makes it internal (it alone). */
export async function setDocumentVisibility(
  db: TDb,
  scope: TScope,
  input: { documentId: string; visibleToPortal: boolean },
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    const { doc, path } = await liveDocument(tx, scope, input.documentId);
    refuseVaultSharing(doc.clientId, 'files');
    const above = input.visibleToPortal ? portalReach(doc.clientId, path).hiddenBy : [];
    const alsoShared = await openWayTo(tx, scope, meta, above, doc.name);
    if (doc.visibleToPortal !== input.visibleToPortal) {
      await tx
        .update(documents)
        .set({ visibleToPortal: input.visibleToPortal })
        .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, doc.id)));
      await logFileVisibility(tx, scope, meta, doc, input.visibleToPortal);
    }
    return { ...doc, visibleToPortal: input.visibleToPortal, alsoShared };
  });
}

/** The log entry of a file's own mark changing (the caller has changed it). */
export function logFileVisibility(
  tx: TExecutor,
  scope: TScope,
  meta: TRequestMeta,
  doc: { id: string; name: string },
  shared: boolean,
) {
  return audit(tx, actorOf(scope, meta), {
    action: 'documents.file.visibility',
    recordType: 'document',
    recordId: doc.id,
    summary: `${shared ? 'Shared' : 'Stopped sharing'} the file “${doc.name}” ${shared ? 'with' : 'in'} the client portal`,
    changes: { visibleToPortal: { from: !shared, to: shared } },
  });
}
