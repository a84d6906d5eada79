// The passwords list's sorts, without zod: the route reads its URL with them on the first page
// (vault.ts, with the schemas, re-exports them).

export const VAULT_SORTS = ['title', 'updatedAt', 'passwordChangedAt'] as const;
