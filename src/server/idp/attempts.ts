import { eq, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpAttempts } from '../db/schema';

// Failure and send counters in the database (several instances share them): `limit` events within
// `windowS` seconds lock the key for `lockS` seconds.

export type TLimit = { limit: number; windowS: number; lockS: number };

export const LIMITS = {
  /** Wrong passwords per user. */
  password: { limit: 5, windowS: 15 * 60, lockS: 15 * 60 },
  /** Codes mailed per user and purpose. */
  codeSend: { limit: 5, windowS: 60 * 60, lockS: 60 * 60 },
} satisfies Record<string, TLimit>;

export async function isLocked(db: TExecutor, key: string): Promise<boolean> {
  const [row] = await db
    .select({
      locked: sql<boolean>`${idpAttempts.lockedUntil} is not null and ${idpAttempts.lockedUntil} > now()`,
    })
    .from(idpAttempts)
    .where(eq(idpAttempts.key, key));
  return row?.locked === true;
}

/** Counts one event; returns true when it reaches the limit (the key is then locked). */
export async function countAttempt(db: TExecutor, key: string, l: TLimit): Promise<boolean> {
  const windowStart = sql`now() - make_interval(secs => ${l.windowS})`;
  const [row] = await db
    .insert(idpAttempts)
    .values({ key, count: 1 })
    .onConflictDoUpdate({
      target: idpAttempts.key,
      set: {
        count: sql`case when ${idpAttempts.windowStartedAt} < ${windowStart} then 1 else ${idpAttempts.count} + 1 end`,
        windowStartedAt: sql`case when ${idpAttempts.windowStartedAt} < ${windowStart} then now() else ${idpAttempts.windowStartedAt} end`,
      },
    })
    .returning({ count: idpAttempts.count });
  if ((row?.count ?? 0) < l.limit) return false;
  await db
    .update(idpAttempts)
    .set({
      lockedUntil: sql`now() + make_interval(secs => ${l.lockS})`,
      count: 0,
      windowStartedAt: sql`now()`,
    })
    .where(eq(idpAttempts.key, key));
  return true;
}

export async function clearAttempts(db: TExecutor, key: string): Promise<void> {
  await db.delete(idpAttempts).where(eq(idpAttempts.key, key));
}
