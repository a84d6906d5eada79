import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpChallenges } from '../db/schema';

// Pending sign-in steps live in the database (any instance may get the answer), keyed by the hash
// of the opaque value the client holds; taking one deletes it, so each is answered once.

export const CHALLENGE_TTL_S = 5 * 60;

export type TChallengeKind =
  | 'srp'
  | 'device_srp'
  | 'device_challenge'
  | 'new_password'
  | 'software_token_mfa'
  | 'email_otp'
  | 'select_mfa_type'
  | 'mfa_setup'
  | 'mfa_setup_done'
  | 'oauth_code'
  | 'hosted_mfa'
  | 'hosted_mfa_setup'
  | 'hosted_mfa_done'
  | 'oauth_federation';

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores a step and returns its opaque token (standard base64: usable as a SECRET_BLOCK too). */
export async function createChallenge(
  db: TExecutor,
  input: { userId: string | null; kind: TChallengeKind; data: Record<string, string> },
): Promise<string> {
  const token = randomBytes(96).toString('base64');
  await db.insert(idpChallenges).values({
    id: idOf(normalise(token)),
    userId: input.userId,
    kind: input.kind,
    data: input.data,
    expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_TTL_S})` as never,
  });
  // Now and then, sweep what nobody answered.
  if (Math.random() < 0.05) await db.delete(idpChallenges).where(lt(idpChallenges.expiresAt, sql`now()`));
  return token;
}

/** base64 and base64url spell the same bytes: key on the bytes. */
const normalise = (token: string) => Buffer.from(token, 'base64').toString('base64');

/** Takes (deletes) a live step of this kind; null when unknown, used, expired or of another kind. */
export async function takeChallenge(db: TExecutor, token: string | undefined, kind: TChallengeKind) {
  if (!token || token.length > 4096) return null;
  const [row] = await db
    .delete(idpChallenges)
    .where(and(eq(idpChallenges.id, idOf(normalise(token))), eq(idpChallenges.kind, kind)))
    .returning({
      userId: idpChallenges.userId,
      data: idpChallenges.data,
      expiresAt: idpChallenges.expiresAt,
      live: sql<boolean>`${idpChallenges.expiresAt} > now()`,
    });
  return row?.live ? row : null;
}

/**
 * Puts a taken step back, unchanged. Amplify answers `Device does not exist.` by dropping its device
 * keys and re-sending the same PASSWORD_VERIFIER answer (same SECRET_BLOCK): a right proof refused
 * only for its device must stay answerable.
 */
export async function restoreChallenge(
  db: TExecutor,
  token: string,
  kind: TChallengeKind,
  row: { userId: string | null; data: Record<string, string>; expiresAt: Date },
): Promise<void> {
  await db
    .insert(idpChallenges)
    .values({
      id: idOf(normalise(token)),
      userId: row.userId,
      kind,
      data: row.data,
      expiresAt: row.expiresAt,
    })
    .onConflictDoNothing();
}
