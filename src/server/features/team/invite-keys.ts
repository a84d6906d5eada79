import { createHash, randomBytes } from 'node:crypto';
import { alias } from 'drizzle-orm/pg-core';
import { INVITE_TTL_DAYS } from '../../../domain/team';
import { members } from '../../db/schema';

// An invitation's link: only the key's SHA-256 is stored, so the database alone opens nothing.

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const newKey = () => randomBytes(32).toString('base64url');
export const expiryFrom = (now: Date) => new Date(now.getTime() + INVITE_TTL_DAYS * 24 * 60 * 60_000);

/** The member who sent an invitation, joined beside the invited one. */
export const inviter = alias(members, 'inviter');
