// The team list's vocabulary and the invitation key's check, without zod: route files use them on
// the first page (team.ts, with the schemas, re-exports them).

/** An invitation key is 32 random bytes in base64url (43 characters); anything else is not ours. */
export const INVITE_KEY = /^[A-Za-z0-9_-]{43}$/;
export const isInviteKey = (key: string): boolean => INVITE_KEY.test(key);

export const MEMBER_LIST_STATUSES = ['active', 'disabled'] as const;

export const TEAM_SORTS = ['name', 'email', 'role', 'status', 'lastActiveAt'] as const;
