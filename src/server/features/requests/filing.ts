import { TRPCError } from '@trpc/server';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { requestFilingOf } from '../../../domain/documents';
import { periodContaining } from '../../../domain/periods';
import { filingFolderName, numberedName } from '../../../domain/requests/filing';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import {
  documentFolders,
  documents,
  orgs,
  projects,
  requestItemFiles,
  requests,
  services,
} from '../../db/schema';
import { storeVersion } from '../documents';
import { audit } from '../system-log';
import type { TItemRow, TRequestRow } from './access';

// Filing on acceptance (issue 36, item 4): a client's uploads are held with their item until the
// firm accepts it; then they become documents of the client, in a folder named for the request
// (made at the first acceptance, kept on the request), shared with the client as the firm's
// setting says (orgs.settings.requestFilesShared, /admin/settings/org). A returned item's files
// stay with the item. The document's version names the same stored bytes: nothing is copied.

/** The period of the request's project ("Apr 2026", "Q1 FY2026-27"), when it has a recurring one. */
async function periodOf(tx: TExecutor, request: TRequestRow): Promise<string | null> {
  if (!request.projectId) return null;
  const [row] = await tx
    .select({
      periodStart: projects.periodStart,
      frequency: services.frequency,
      fyMonth: orgs.fiscalYearStartMonth,
    })
    .from(projects)
    .innerJoin(orgs, eq(orgs.id, projects.orgId))
    .leftJoin(services, and(eq(services.orgId, projects.orgId), eq(services.id, projects.serviceId)))
    .where(and(eq(projects.orgId, request.orgId), eq(projects.id, request.projectId)));
  if (!row?.periodStart || !row.frequency || row.frequency === 'one_time') return null;
  return periodContaining(row.frequency, row.fyMonth, row.periodStart).label || null;
}

/** The request's folder, live, or a new one under the client's top folder (`rootId`). */
async function filingFolder(tx: TExecutor, request: TRequestRow, rootId: string, share: boolean) {
  if (request.folderId) {
    const [live] = await tx
      .select({ id: documentFolders.id, name: documentFolders.name })
      .from(documentFolders)
      .where(
        and(
          eq(documentFolders.orgId, request.orgId),
          eq(documentFolders.id, request.folderId),
          isNull(documentFolders.deletedAt),
        ),
      );
    if (live) return { ...live, created: false };
  }
  const base = filingFolderName(request.title, await periodOf(tx, request));
  for (let n = 1; n <= 50; n += 1) {
    const name = n === 1 ? base : `${base} (${n})`;
    const [folder] = await tx
      .insert(documentFolders)
      .values({
        orgId: request.orgId,
        clientId: request.clientId,
        parentId: rootId,
        name,
        visibleToPortal: share,
      })
      .onConflictDoNothing()
      .returning({ id: documentFolders.id, name: documentFolders.name });
    if (!folder) continue;
    await tx
      .update(requests)
      .set({ folderId: folder.id })
      .where(and(eq(requests.orgId, request.orgId), eq(requests.id, request.id)));
    return { ...folder, created: true };
  }
  throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
}

/** A name free among the folder's live files: "Form 16.pdf", then "Form 16 (2).pdf", … */
async function freeName(tx: TExecutor, orgId: string, folderId: string, wanted: string) {
  let name = wanted;
  for (let n = 2; n <= 500; n += 1) {
    const [taken] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(
        and(
          eq(documents.orgId, orgId),
          eq(documents.folderId, folderId),
          isNull(documents.deletedAt),
          sql`lower(${documents.name}) = lower(${name})`,
        ),
      )
      .limit(1);
    if (!taken) return name;
    name = numberedName(wanted, n);
  }
  throw new TRPCError({ code: 'CONFLICT', message: 'Please try again' });
}

/**
 * Files the item's held files (none filed twice: a file once filed keeps its document). `rootId`
 * is the client's top folder, set up by the caller before its transaction (ensureTree) when it saw
 * held files.
 */
export async function fileAcceptedItem(
  tx: TExecutor,
  scope: TScope,
  meta: TRequestMeta,
  input: { request: TRequestRow; item: TItemRow; rootId: string | null },
) {
  const { request, item, rootId } = input;
  const held = await tx
    .select()
    .from(requestItemFiles)
    .where(
      and(
        eq(requestItemFiles.orgId, scope.orgId),
        eq(requestItemFiles.itemId, item.id),
        isNull(requestItemFiles.documentId),
      ),
    )
    .orderBy(asc(requestItemFiles.createdAt))
    .for('update');
  if (!held.length) return null;
  // A file arrived after the caller looked (and so set up no top folder): the firm accepts again.
  if (!rootId) throw new TRPCError({ code: 'CONFLICT', message: 'A file just arrived: please try again' });
  const [org] = await tx.select({ settings: orgs.settings }).from(orgs).where(eq(orgs.id, scope.orgId));
  const share = requestFilingOf(org?.settings).shareWithClient;
  const folder = await filingFolder(tx, request, rootId, share);
  if (folder.created) {
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.folder.create',
      recordType: 'documentFolder',
      recordId: folder.id,
      summary: `Created the folder “${folder.name}” for the files accepted from the request “${request.title}”${share ? ', shared with the client portal' : ''}`,
    });
  }
  const filed: string[] = [];
  for (const file of held) {
    const name = await freeName(tx, scope.orgId, folder.id, file.name);
    const { doc } = await storeVersion(tx, {
      orgId: scope.orgId,
      folder: { id: folder.id, clientId: request.clientId },
      existing: undefined,
      name,
      upload: file,
      visibleToPortal: share,
      by: file.uploadedByClientUserId
        ? { clientUserId: file.uploadedByClientUserId }
        : { memberId: scope.memberId },
    });
    await tx
      .update(requestItemFiles)
      .set({ documentId: doc.id, filedAt: new Date() })
      .where(and(eq(requestItemFiles.orgId, scope.orgId), eq(requestItemFiles.id, file.id)));
    filed.push(name);
  }
  await audit(tx, actorOf(scope, meta), {
    action: 'request.item.file',
    recordType: 'request',
    recordId: request.id,
    summary: `Filed ${filed.map((n) => `“${n}”`).join(', ')} of “${item.label}” into the client's folder “${folder.name}”${share ? ', shared with the client' : ', internal'}`,
  });
  return { folderId: folder.id, folderName: folder.name, files: filed, shared: share };
}
