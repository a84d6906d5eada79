import { TRPCError } from '@trpc/server';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { hasControlCharacter } from '../../../domain/documents';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb } from '../../db/client';
import { documentFolders, documents, documentVersions } from '../../db/schema';
import { rowsOf } from '../../db/sql';
import { audit } from '../system-log';
import { liveFolder } from './access';

/** A folder zip holds at most this many files; beyond it people download sub-folders. */
export const ZIP_MAX_FILES = 20_000;

/**
 * A name as one path segment inside a zip: no separators, no "." or "..", no control characters,
 * so unpacking can never write outside the folder it is unpacked into.
 */
export function zipSegment(name: string): string {
  const clean = [...name]
    .filter((c) => !hasControlCharacter(c))
    .join('')
    .replace(/[/\\]/g, '_')
    .trim();
  return clean === '' || clean === '.' || clean === '..' ? '_' : clean;
}

/** What a folder zip holds: every live file under the folder, with its path inside the zip. */
export async function zipEntries(db: TDb, scope: TScope, folderId: string, meta: TRequestMeta) {
  const { folder } = await liveFolder(db, scope, folderId);
  const result = await db.execute(sql`
    with recursive down as (
      select id, ''::text as path, 0 as depth from ${documentFolders}
      where org_id = ${scope.orgId} and id = ${folder.id}
      union all
      select f.id, down.path || f.name || '/', down.depth + 1 from ${documentFolders} f
      join down on f.parent_id = down.id and f.org_id = ${scope.orgId}
      where f.deleted_at is null and down.depth < 64
    )
    select id, path from down`);
  const folders = rowsOf<{ id: string; path: string }>(result);
  const pathOf = new Map(
    folders.map((f) => [
      f.id,
      f.path
        .split('/')
        .filter(Boolean)
        .map(zipSegment)
        .map((s) => `${s}/`)
        .join(''),
    ]),
  );
  const files = await db
    .select({
      folderId: documents.folderId,
      name: documents.name,
      updatedAt: documents.updatedAt,
      storageKey: documentVersions.storageKey,
    })
    .from(documents)
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.orgId, documents.orgId), eq(documentVersions.id, documents.currentVersionId)),
    )
    .where(
      and(
        eq(documents.orgId, scope.orgId),
        inArray(
          documents.folderId,
          folders.map((f) => f.id),
        ),
        isNull(documents.deletedAt),
      ),
    )
    .limit(ZIP_MAX_FILES + 1);
  if (files.length > ZIP_MAX_FILES) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `This folder holds more than ${ZIP_MAX_FILES} files: download its folders one at a time`,
    });
  }
  await db.transaction((tx) =>
    audit(tx, actorOf(scope, meta), {
      action: 'documents.folder.download',
      recordType: 'documentFolder',
      recordId: folder.id,
      summary: `Downloaded the folder “${folder.name}” as a zip (${files.length} ${files.length === 1 ? 'file' : 'files'})`,
    }),
  );
  return {
    name: zipSegment(folder.name),
    files: files.map((f) => ({
      path: `${pathOf.get(f.folderId) ?? ''}${zipSegment(f.name)}`,
      storageKey: f.storageKey,
      updatedAt: f.updatedAt,
    })),
  };
}
