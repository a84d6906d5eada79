import type { TThreadListInput } from '@domain/messages';
import { INBOX_VIEWS, type TInboxView } from '@domain/messages-constants';

/** The inbox's URL: ?view=mine&status=closed&q=form+16&page=2&thread={id} (thread: the one open). */
export type TMessagesSearch = {
  view?: TInboxView;
  status?: 'closed' | 'any';
  q?: string;
  page?: number;
  thread?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseMessagesSearch(search: Record<string, unknown>): TMessagesSearch {
  const out: TMessagesSearch = {};
  if (typeof search.view === 'string' && (INBOX_VIEWS as readonly string[]).includes(search.view))
    out.view = search.view as TInboxView;
  if (search.status === 'closed' || search.status === 'any') out.status = search.status;
  if (typeof search.q === 'string' && search.q.trim()) out.q = search.q.trim().slice(0, 200);
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1 && page < 10_000) out.page = page;
  if (typeof search.thread === 'string' && UUID.test(search.thread)) out.thread = search.thread;
  return out;
}

export function threadListInput(search: TMessagesSearch, clientId?: string): TThreadListInput {
  return {
    view: clientId ? 'all' : (search.view ?? 'all'),
    status: search.status ?? 'open',
    search: search.q,
    page: search.page ?? 1,
    ...(clientId ? { clientId } : {}),
  };
}
