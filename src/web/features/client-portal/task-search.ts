import { PORTAL_TASK_VIEWS, type TPortalTaskView } from '@domain/client-portal-constants';

export type TPortalTaskSearch = { view?: TPortalTaskView; task?: string; page?: number };

/** ?view=completed, ?task={id} (the open task), ?page=2; anything else is dropped. */
export function ZPortalTaskSearch(search: Record<string, unknown>): TPortalTaskSearch {
  const out: TPortalTaskSearch = {};
  if (typeof search.view === 'string' && (PORTAL_TASK_VIEWS as readonly string[]).includes(search.view)) {
    out.view = search.view as TPortalTaskView;
  }
  if (typeof search.task === 'string' && /^[0-9a-f-]{36}$/i.test(search.task)) out.task = search.task;
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1 && page < 10_000) out.page = page;
  return out;
}
