// Without zod: the staff shell's timer reads it on every page (timesheets.ts, with the schemas,
// re-exports it).

/** No single entry may claim more of a day than this. */
export const MAX_ENTRY_MINUTES = 12 * 60;
