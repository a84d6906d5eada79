import { eq, sql } from 'drizzle-orm';
import {
  defaultClientFoldersOf,
  requestFilingOf,
  type TDefaultClientFolders,
  type TRequestFiling,
} from '../../../domain/documents';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TDb, TExecutor } from '../../db/client';
import { orgs } from '../../db/schema';
import { audit } from '../system-log';

/** The firm's default folders for a client's documents (orgs.settings.defaultClientFolders). */
export async function getDefaultFolders(db: TExecutor, scope: TScope) {
  const [org] = await db.select({ settings: orgs.settings }).from(orgs).where(eq(orgs.id, scope.orgId));
  return { folders: defaultClientFoldersOf(org?.settings) };
}

/** Replaces the list; it applies to client trees opened from now on (existing ones keep theirs). */
export async function setDefaultFolders(
  db: TDb,
  scope: TScope,
  input: TDefaultClientFolders,
  meta: TRequestMeta,
) {
  const folders = [...new Set(input.folders)];
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ settings: orgs.settings })
      .from(orgs)
      .where(eq(orgs.id, scope.orgId))
      .for('update');
    const from = defaultClientFoldersOf(before?.settings);
    if (JSON.stringify(from) === JSON.stringify(folders)) return { folders, changed: false };
    await tx
      .update(orgs)
      .set({
        settings: sql`${orgs.settings} || ${JSON.stringify({ defaultClientFolders: folders })}::jsonb`,
      })
      .where(eq(orgs.id, scope.orgId));
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.defaultFolders.update',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `Set the default client folders to ${folders.length ? folders.map((f) => `“${f}”`).join(', ') : 'none'}`,
      changes: { defaultClientFolders: { from, to: folders } },
    });
    return { folders, changed: true };
  });
}

/** Whether files accepted from client requests are shared with the client (requestFilingOf). */
export async function getRequestFiling(db: TExecutor, scope: TScope) {
  const [org] = await db.select({ settings: orgs.settings }).from(orgs).where(eq(orgs.id, scope.orgId));
  return requestFilingOf(org?.settings);
}

/** Changes it for files accepted from now on; files filed before keep what they were given. */
export async function setRequestFiling(db: TDb, scope: TScope, input: TRequestFiling, meta: TRequestMeta) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ settings: orgs.settings })
      .from(orgs)
      .where(eq(orgs.id, scope.orgId))
      .for('update');
    const from = requestFilingOf(before?.settings).shareWithClient;
    if (from === input.shareWithClient) return { ...input, changed: false };
    await tx
      .update(orgs)
      .set({
        settings: sql`${orgs.settings} || ${JSON.stringify({ requestFilesShared: input.shareWithClient })}::jsonb`,
      })
      .where(eq(orgs.id, scope.orgId));
    await audit(tx, actorOf(scope, meta), {
      action: 'documents.requestFiling.update',
      recordType: 'org',
      recordId: scope.orgId,
      summary: input.shareWithClient
        ? 'Files accepted from client requests are now shared with the client when filed'
        : 'Files accepted from client requests are now filed internal (the client does not see them)',
      changes: { requestFilesShared: { from, to: input.shareWithClient } },
    });
    return { ...input, changed: true };
  });
}
