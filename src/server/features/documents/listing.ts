import { and, asc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TDocumentMeta, TDocumentPageInput } from '../../../domain/documents';
import type { TScope } from '../../auth';
import type { TExecutor } from '../../db/client';
import { documentFolders, documents, documentVersions } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { clientVisibility } from '../clients';
import { checkTree, liveDocument, liveFolder } from './access';

// The firm's files as one paged list and one file's metadata (the public API's documents). The
// same reach as the screens: another firm's or an unassigned client's files are never in it, nor
// a file in the trash or under a folder in the trash.

const metaColumns = {
  id: documents.id,
  name: documents.name,
  folderId: documents.folderId,
  clientId: documents.clientId,
  size: documents.size,
  contentType: documents.contentType,
  version: documents.currentVersion,
  checksumSha256: documentVersions.checksumSha256,
  visibleToPortal: documents.visibleToPortal,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

type TMetaRow = Omit<TDocumentMeta, 'createdAt' | 'updatedAt'> & { createdAt: Date; updatedAt: Date };

const withVersion = and(
  eq(documentVersions.orgId, documents.orgId),
  eq(documentVersions.id, documents.currentVersionId),
);

/** Of these folders, the ones that are or lie under a folder in the trash (one recursive query). */
async function foldersInTrash(db: TExecutor, orgId: string, folderIds: string[]): Promise<Set<string>> {
  if (folderIds.length === 0) return new Set();
  const list = sql.join(
    folderIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with recursive up as (
      select id as start, id, parent_id, deleted_at, 0 as depth from ${documentFolders}
      where org_id = ${orgId} and id in (${list})
      union all
      select up.start, f.id, f.parent_id, f.deleted_at, up.depth + 1
      from ${documentFolders} f
      join up on f.id = up.parent_id and f.org_id = ${orgId}
      where up.depth < 64 and up.deleted_at is null
    )
    select distinct start from up where deleted_at is not null`);
  return new Set(rowsOf<{ start: string }>(result).map((r) => r.start));
}

/**
 * One page of live files, oldest first, after `cursor` (the last id of the page before). A page
 * may hold fewer rows than asked when some lie under a folder in the trash; `nextCursor` is null
 * only on the last page.
 */
export async function documentPage(db: TExecutor, scope: TScope, input: TDocumentPageInput) {
  const where: (SQL | undefined)[] = [eq(documents.orgId, scope.orgId), isNull(documents.deletedAt)];
  if (input.folderId) {
    const { folder } = await liveFolder(db, scope, input.folderId);
    if (input.clientId && folder.clientId !== input.clientId) return { rows: [], nextCursor: null };
    where.push(eq(documents.folderId, folder.id));
  } else if (input.clientId) {
    await checkTree(db, scope, input.clientId);
    where.push(eq(documents.clientId, input.clientId));
  } else if (scope.assignedClientsOnly) {
    // The firm's vault is every member's; a client's files only its team's.
    where.push(or(isNull(documents.clientId), clientVisibility(scope, documents.clientId)));
  }
  if (input.cursor) where.push(gt(documents.id, input.cursor));
  const rows: TMetaRow[] = await db
    .select(metaColumns)
    .from(documents)
    .innerJoin(
      documentFolders,
      and(eq(documentFolders.orgId, documents.orgId), eq(documentFolders.id, documents.folderId)),
    )
    .leftJoin(documentVersions, withVersion)
    .where(and(...where, isNull(documentFolders.deletedAt)))
    .orderBy(asc(documents.id))
    .limit(input.pageSize + 1);
  const more = rows.length > input.pageSize;
  const page = more ? rows.slice(0, input.pageSize) : rows;
  const trashed = await foldersInTrash(db, scope.orgId, [...new Set(page.map((r) => r.folderId))]);
  return {
    rows: page.filter((r) => !trashed.has(r.folderId)),
    nextCursor: more ? (page.at(-1)?.id ?? null) : null,
  };
}

/** One live file's metadata, else NOT_FOUND (another firm's, an unassigned client's, in the trash). */
export async function documentMeta(db: TExecutor, scope: TScope, documentId: string): Promise<TMetaRow> {
  const { doc } = await liveDocument(db, scope, documentId);
  const [row] = await db
    .select(metaColumns)
    .from(documents)
    .leftJoin(documentVersions, withVersion)
    .where(and(eq(documents.orgId, scope.orgId), inArray(documents.id, [doc.id])));
  if (!row) throw new Error('the file went away');
  return row;
}
