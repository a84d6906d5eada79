import { eq } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpUsers } from '../db/schema';
import { releaseAttempts, takeSignInAttempt } from './attempts';
import { verifyPassword } from './passwords';
import { revokeUserSessions } from './sessions';
import { findUserById } from './users';

/**
 * The person's own password, checked as ChangePassword checks it: each try takes a slot of the
 * same growing lock as sign-in, so a stolen session cannot guess the password here either.
 */
export async function confirmOwnPassword(
  db: TExecutor,
  userId: string,
  password: string,
): Promise<'ok' | 'wrong' | 'locked' | 'no_user'> {
  const user = await findUserById(db, userId);
  if (!user) return 'no_user';
  const key = `pw:${user.id}`;
  const slot = await takeSignInAttempt(db, key);
  if (!slot.allowed) return 'locked';
  if (!(await verifyPassword(password, user.passwordHash))) return slot.last ? 'locked' : 'wrong';
  await releaseAttempts(db, key, slot);
  return 'ok';
}

/**
 * Removes the identity. Its sign-ins are revoked first and outlive it, so every token it holds
 * stays refused; devices, codes and challenges go with the user (cascade).
 */
export async function deleteIdentity(tx: TExecutor, userId: string): Promise<void> {
  await revokeUserSessions(tx, userId);
  await tx.delete(idpUsers).where(eq(idpUsers.id, userId));
}
