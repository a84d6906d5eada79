export type TPortalMessagesSearch = { thread?: string; page?: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** ?thread={id} (the open conversation), ?page=2; anything else is dropped. */
export function parsePortalMessagesSearch(search: Record<string, unknown>): TPortalMessagesSearch {
  const out: TPortalMessagesSearch = {};
  if (typeof search.thread === 'string' && UUID.test(search.thread)) out.thread = search.thread;
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1 && page < 10_000) out.page = page;
  return out;
}
