import { and, eq, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpAttempts } from '../db/schema';

// Attempt and send counters in the database (several instances share them). An event first takes
// a slot, and only then is the password or code checked: taking the slot is one statement
// (`insert … on conflict do update … returning`), so a concurrent burst can never check more than
// `limit` within `windowS` seconds, on PGlite or PostgreSQL (the upsert locks the row; a second
// one waits and sees the first one's count). Taking the `limit`-th slot locks the key for `lockS`
// seconds; while locked, nothing more is checked.

export type TLimit = { limit: number; windowS: number; lockS: number };

export const LIMITS = {
  /** Wrong passwords per user. */
  password: { limit: 5, windowS: 15 * 60, lockS: 15 * 60 },
  /** Codes mailed per user and purpose. */
  codeSend: { limit: 5, windowS: 60 * 60, lockS: 60 * 60 },
} satisfies Record<string, TLimit>;

export type TSlot = {
  /** This event may go ahead (be checked, be sent). */
  allowed: boolean;
  /** This event took the last slot: the key is locked now (a wrong answer says so). */
  last: boolean;
  /** The event's number in the window; on success, `releaseAttempts` needs it. */
  count: number;
  /** Seconds until the key unlocks (0 when it is not locked). */
  retryS: number;
};

export async function isLocked(db: TExecutor, key: string): Promise<boolean> {
  const [row] = await db
    .select({
      locked: sql<boolean>`${idpAttempts.lockedUntil} is not null and ${idpAttempts.lockedUntil} > now()`,
    })
    .from(idpAttempts)
    .where(eq(idpAttempts.key, key));
  return row?.locked === true;
}

/**
 * Takes one slot of the key, atomically: counts the event and answers whether it may go ahead in
 * the same statement. A refused event is counted too (it changes nothing while the key is locked).
 */
export async function takeAttempt(db: TExecutor, key: string, l: TLimit): Promise<TSlot> {
  const t = idpAttempts;
  // The old row's window is over: its lock has run out, or (never locked) its window has.
  const over = sql`(case when ${t.lockedUntil} is not null then ${t.lockedUntil} <= now() else ${t.windowStartedAt} < now() - make_interval(secs => ${l.windowS}) end)`;
  const lockUntil = sql`now() + make_interval(secs => ${l.lockS})`;
  const [row] = await db
    .insert(t)
    .values({ key, count: 1, lockedUntil: l.limit <= 1 ? (lockUntil as never) : null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${over} then 1 else ${t.count} + 1 end`,
        windowStartedAt: sql`case when ${over} then now() else ${t.windowStartedAt} end`,
        lockedUntil: sql`case
          when ${over} then (case when 1 >= ${l.limit} then ${lockUntil} end)
          when ${t.count} + 1 = ${l.limit} then ${lockUntil}
          else ${t.lockedUntil} end`,
      },
    })
    .returning({
      count: t.count,
      retryS: sql<number>`greatest(0, ceil(extract(epoch from (${t.lockedUntil} - now()))))::int`,
    });
  const count = row?.count ?? 1;
  return {
    allowed: count <= l.limit,
    last: count >= l.limit,
    count,
    retryS: Number(row?.retryS ?? 0),
  };
}

/**
 * After a success (a right password): the earlier failures are forgiven — unless another event
 * took a slot after this one, which keeps its count (a burst around a right password cannot buy
 * itself fresh slots).
 */
export async function releaseAttempts(db: TExecutor, key: string, slot: TSlot): Promise<void> {
  await db.delete(idpAttempts).where(and(eq(idpAttempts.key, key), eq(idpAttempts.count, slot.count)));
}

export async function clearAttempts(db: TExecutor, key: string): Promise<void> {
  await db.delete(idpAttempts).where(eq(idpAttempts.key, key));
}
