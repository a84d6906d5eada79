// The clients list's vocabulary, without zod: route files read their URL with it on the first page
// (clients.ts, with the schemas, re-exports it).

export const CLIENT_TYPES = [
  'individual',
  'proprietor',
  'partnership',
  'llp',
  'company',
  'trust',
  'huf',
  'other',
] as const;
export type TClientType = (typeof CLIENT_TYPES)[number];

export const CLIENT_STATUSES = ['active', 'inactive'] as const;
export type TClientStatus = (typeof CLIENT_STATUSES)[number];

export const CLIENT_SORTS = ['name', 'code', 'createdAt'] as const;

export const ARCHIVED_FILTERS = ['hide', 'only', 'include'] as const;
