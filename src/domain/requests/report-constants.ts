// The report's sorts, without zod: the route reads its URL with them on the first page
// (report.ts, with the schemas, re-exports them).

export const OUTSTANDING_SORTS = ['name', 'open', 'oldest', 'overdue'] as const;
