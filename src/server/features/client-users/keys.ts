import { createHash, randomBytes } from 'node:crypto';
import { PORTAL_INVITE_TTL_DAYS } from '../../../domain/client-users';

// Portal invitation keys: 32 random bytes in the mailed link, only their SHA-256 in the database.

export const hashInviteKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const newInviteKey = () => randomBytes(32).toString('base64url');
export const inviteExpiry = (now: Date) =>
  new Date(now.getTime() + PORTAL_INVITE_TTL_DAYS * 24 * 60 * 60_000);
