// The portal invitation key's check, without zod: the route uses it on the first page
// (client-users.ts re-exports it).

/** A portal invitation key is 32 random bytes in base64url (43 characters); anything else is not ours. */
export const PORTAL_INVITE_KEY = /^[A-Za-z0-9_-]{43}$/;
export const isPortalInviteKey = (key: string): boolean => PORTAL_INVITE_KEY.test(key);
