// The portal invitation key's check and the sign-in code's length, without zod: the routes and the
// portal login use them on the first page (client-users.ts re-exports them).

/** A portal invitation key is 32 random bytes in base64url (43 characters); anything else is not ours. */
export const PORTAL_INVITE_KEY = /^[A-Za-z0-9_-]{43}$/;
export const isPortalInviteKey = (key: string): boolean => PORTAL_INVITE_KEY.test(key);

/** Sign-in codes: six digits (valid ten minutes, dead after five wrong guesses: client-users.ts). */
export const PORTAL_CODE_LENGTH = 6;
