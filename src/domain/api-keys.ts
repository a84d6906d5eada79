import { z } from 'zod';
import { zDate, zId, zString } from './fields';

// The public API's keys (issue 40): made by an owner or admin at /admin/settings/api, shown once.

/** Every key starts with this, so a secret scanner (and a person) can tell what it is. */
export const API_KEY_PREFIX = 'pk_live_';
/** Calls a key may make per minute, across every instance (config API_KEY_RATE_PER_MINUTE overrides). */
export const API_KEY_RATE_PER_MINUTE = 120;

export const ZApiKeyCreate = z.object({
  name: zString().trim().min(1, 'Give the key a name').max(80, 'The name must be at most 80 characters'),
  roleId: zId('Choose a role for the key'),
  /** No expiry when left out; otherwise a moment in the future. */
  expiresAt: zDate()
    .nullable()
    .optional()
    .refine((value) => !value || value.getTime() > Date.now(), 'Choose an expiry date in the future'),
});
export type TApiKeyCreate = z.output<typeof ZApiKeyCreate>;
export type TApiKeyCreateInput = z.input<typeof ZApiKeyCreate>;

export const ZApiKeyRef = z.object({ apiKeyId: zId('Choose a key from the list') });

export type TApiKeyState = 'active' | 'expired' | 'revoked';

export function apiKeyState(
  key: { revokedAt: Date | null; expiresAt: Date | null },
  now = new Date(),
): TApiKeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
