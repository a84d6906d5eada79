// The inbox's views, without zod: the route reads its URL with them on the first page (messages.ts,
// with the schemas, re-exports them).

/** The firm's inbox views: every thread the member may see, theirs, nobody's, theirs unread. */
export const INBOX_VIEWS = ['all', 'mine', 'unassigned', 'unread'] as const;
export type TInboxView = (typeof INBOX_VIEWS)[number];
