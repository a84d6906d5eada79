// Without zod: the route reads it on the first page (security.ts re-exports it).

export const SIGN_INS_PAGE_SIZE = 10;
