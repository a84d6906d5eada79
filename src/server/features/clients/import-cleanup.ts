import { and, asc, inArray, lt } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { clientImports } from '../../db/schema';

/** An import nobody has touched for this long is finished with or abandoned. */
export const CLIENT_IMPORT_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;
// An import holds up to 10,000 staged rows that go with it: a few imports per statement keeps
// each delete short.
const PURGE_BATCH = 5;

/**
 * Deletes imports untouched for the retention, with their staged rows (the foreign key cascades):
 * finished ones, whose report has had its week, and abandoned ones (a preview never run, an
 * import stopped part-way). Every step of a running import touches it, so none in use qualifies.
 * The clients an import created are the firm's and stay. One batch per call; `more` asks for another.
 */
export async function purgeClientImports(db: TDb, now: Date): Promise<{ imports: number; more: boolean }> {
  const cutoff = new Date(now.getTime() - CLIENT_IMPORT_RETENTION_DAYS * DAY_MS);
  const stale = db
    .select({ id: clientImports.id })
    .from(clientImports)
    .where(lt(clientImports.updatedAt, cutoff))
    .orderBy(asc(clientImports.updatedAt))
    .limit(PURGE_BATCH);
  // The age is checked again on the row itself: a step resuming the import meanwhile keeps it.
  const deleted = await db
    .delete(clientImports)
    .where(and(inArray(clientImports.id, stale), lt(clientImports.updatedAt, cutoff)))
    .returning({ id: clientImports.id });
  return { imports: deleted.length, more: deleted.length === PURGE_BATCH };
}
