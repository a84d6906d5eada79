import { and, eq, like, or, sql } from 'drizzle-orm';
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
 * Cognito's lock for wrong passwords (and MFA codes): five failures go free; the fifth locks the
 * key for a second, and each further failure doubles the lock, up to about 15 minutes. Attempts
 * while locked are refused and change nothing. Fifteen quiet minutes, or a success, forget it all.
 */
export const SIGN_IN_LOCK = { free: 5, maxLockS: 15 * 60, forgetS: 15 * 60 };

/**
 * Takes a slot for a password or MFA-code check, counted as a failure until `releaseAttempts`
 * forgives it, in one statement (see takeAttempt). `last`: this attempt started a lock, so a wrong
 * answer says the attempts are exceeded.
 */
export async function takeSignInAttempt(db: TExecutor, key: string): Promise<TSlot> {
  const t = idpAttempts;
  const l = SIGN_IN_LOCK;
  const locked = sql`(${t.lockedUntil} is not null and ${t.lockedUntil} > now())`;
  const n = sql`(case when ${t.windowStartedAt} < now() - make_interval(secs => ${l.forgetS}) then 1 else ${t.count} + 1 end)`;
  const lockFor = sql`least(${l.maxLockS}, power(2, ${n} - ${l.free}))`;
  // windowStartedAt is the time of the last counted attempt: the quiet period runs from it.
  const [row] = await db
    .insert(t)
    .values({ key, count: 1 })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${locked} then ${t.count} else ${n} end`,
        windowStartedAt: sql`case when ${locked} then ${t.windowStartedAt} else now() end`,
        lockedUntil: sql`case when ${locked} then ${t.lockedUntil}
          when ${n} >= ${l.free} then now() + make_interval(secs => ${lockFor}) else null end`,
      },
    })
    .returning({
      count: t.count,
      // A refused attempt left the row as it was; a counted one stamped it with this statement's now().
      counted: sql<boolean>`${t.windowStartedAt} = now()`,
      retryS: sql<number>`greatest(0, ceil(extract(epoch from (${t.lockedUntil} - now()))))::int`,
    });
  const count = row?.count ?? 1;
  const counted = row?.counted !== false;
  return { allowed: counted, last: counted && count >= l.free, count, retryS: Number(row?.retryS ?? 0) };
}

/**
 * After a success (a right password): the earlier failures are forgiven — unless another event
 * took a slot after this one, which keeps its count (a burst around a right password cannot buy
 * itself fresh slots).
 */
export async function releaseAttempts(db: TExecutor, key: string, slot: TSlot): Promise<void> {
  await db.delete(idpAttempts).where(and(eq(idpAttempts.key, key), eq(idpAttempts.count, slot.count)));
}

/** Every password and MFA-code lock of a user: the account's, its trusted sources', its codes'. */
export async function clearSignInLocks(db: TExecutor, userId: string): Promise<void> {
  await db
    .delete(idpAttempts)
    .where(
      or(
        eq(idpAttempts.key, `pw:${userId}`),
        like(idpAttempts.key, `pw:${userId}:%`),
        eq(idpAttempts.key, `mfa:${userId}`),
      ),
    );
}
