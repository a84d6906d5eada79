// Without zod: the route reads it on the first page (notifications.ts re-exports it).

/** The notifications screen's page size (its route loader and the screen share it). */
export const NOTIFICATIONS_PAGE_SIZE = 20;
