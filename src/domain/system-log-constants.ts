// The system log's sorts, without zod: the route reads its URL with them on the first page
// (system-log.ts, with the schemas, re-exports them).

export const SYSTEM_LOG_SORTS = ['at', 'action', 'recordType'] as const;
