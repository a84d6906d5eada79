import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpCodes } from '../db/schema';
import { LIMITS, takeAttempt } from './attempts';
import { E } from './errors';

// Six-digit codes for sign-up confirmation, password reset and attribute verification: one live
// code per user and purpose, stored hashed, expiring, five wrong tries at most.

export type TCodePurpose = 'signup' | 'reset' | 'attr:email' | 'mfa:email';

// An EMAIL_OTP sign-in code lives as long as the sign-in's challenge (Cognito: 5 minutes by default).
const TTL_S: Record<TCodePurpose, number> = {
  signup: 24 * 3600,
  reset: 3600,
  'attr:email': 24 * 3600,
  'mfa:email': 5 * 60,
};
export const CODE_MAX_ATTEMPTS = 5;

const hashCode = (userId: string, purpose: string, code: string) =>
  createHash('sha256').update(`${userId}:${purpose}:${code}`).digest('hex');

/** A fresh code (replacing any earlier one); LimitExceededException after too many sends. */
export async function issueCode(db: TExecutor, userId: string, purpose: TCodePurpose): Promise<string> {
  const key = `send:${purpose}:${userId}`;
  // Counted and decided in one statement, so a burst of requests cannot mail more than the limit.
  if (!(await takeAttempt(db, key, LIMITS.codeSend)).allowed) throw E.attemptLimit();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = sql`now() + make_interval(secs => ${TTL_S[purpose]})`;
  await db
    .insert(idpCodes)
    .values({ userId, purpose, codeHash: hashCode(userId, purpose, code), expiresAt: expiresAt as never })
    .onConflictDoUpdate({
      target: [idpCodes.userId, idpCodes.purpose],
      set: {
        codeHash: hashCode(userId, purpose, code),
        attempts: 0,
        expiresAt: expiresAt as never,
        createdAt: sql`now()`,
      },
    });
  return code;
}

/**
 * Checks a code and consumes it when right. Wrong: CodeMismatchException (counted); expired or
 * missing: ExpiredCodeException; too many wrong tries: LimitExceededException.
 */
export async function consumeCode(
  db: TExecutor,
  userId: string,
  purpose: TCodePurpose,
  code: string,
): Promise<void> {
  const [row] = await db
    .update(idpCodes)
    .set({ attempts: sql`${idpCodes.attempts} + 1` })
    .where(and(eq(idpCodes.userId, userId), eq(idpCodes.purpose, purpose)))
    .returning({
      codeHash: idpCodes.codeHash,
      attempts: idpCodes.attempts,
      expired: sql<boolean>`${idpCodes.expiresAt} <= now()`,
    });
  if (!row || row.expired) throw E.codeExpired();
  if (row.attempts > CODE_MAX_ATTEMPTS) throw E.attemptLimit();
  const given = Buffer.from(hashCode(userId, purpose, code), 'hex');
  const stored = Buffer.from(row.codeHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw E.codeMismatch();
  await db.delete(idpCodes).where(and(eq(idpCodes.userId, userId), eq(idpCodes.purpose, purpose)));
}
