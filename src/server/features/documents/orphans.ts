import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { rowsOf } from '../../db/sql';
import type { TStorage, TStoredObject } from '../../files/driver';
import { namedStoredFiles } from '../../files/references';

/** How old a leftover must be before the sweep touches it: no upload, nor its recording, lasts a day. */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60_000;
const BATCH = 500;

/**
 * Removes what storage holds and the database does not name (`namedStoredFiles`): the part files
 * (local) or multipart uploads (S3) of uploads cut off by a crash or a kill, and complete files whose version row was
 * never written (the process died between the store and the commit) or whose delete failed.
 * Only what was last written more than `minAgeMs` before `now`, and never a key this process is
 * still writing, so an upload in progress (or one about to be recorded) is never taken.
 */
export async function sweepOrphanFiles(
  db: TDb,
  storage: TStorage,
  now: Date,
  options: { minAgeMs?: number } = {},
): Promise<{ scanned: number; removed: number; partial: number }> {
  const cutoff = now.getTime() - (options.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  const result = { scanned: 0, removed: 0, partial: 0 };
  let batch: TStoredObject[] = [];
  const flush = async () => {
    const candidates = batch;
    batch = [];
    const complete = [...new Set(candidates.filter((o) => !o.partial).map((o) => o.key))];
    const named = new Set(
      complete.length
        ? rowsOf<{ key: string }>(
            await db.execute(
              sql`select distinct storage_key as key from ${namedStoredFiles} s
                where storage_key in (${sql.join(
                  complete.map((k) => sql`${k}`),
                  sql`, `,
                )})`,
            ),
          ).map((r) => r.key)
        : [],
    );
    for (const object of candidates) {
      // A part is never named by a version: its upload either finished (under its key) or died.
      if (!object.partial && named.has(object.key)) continue;
      if (storage.writing(object.key)) continue;
      await storage.remove(object);
      result.removed += 1;
      if (object.partial) result.partial += 1;
    }
  };
  for await (const object of storage.list('')) {
    result.scanned += 1;
    if (object.lastModified.getTime() >= cutoff) continue;
    batch.push(object);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  return result;
}
