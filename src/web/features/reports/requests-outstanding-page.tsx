import { OUTSTANDING_SORTS } from '@domain/requests/report-constants';

// The route's search for /reports/requests/outstanding, apart from the screen so the route file
// loads without it (the screen is lazy).

export type TOutstandingSearch = {
  senderId?: string;
  search?: string;
  page?: number;
  sort?: (typeof OUTSTANDING_SORTS)[number];
  direction?: 'asc' | 'desc';
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseOutstandingSearch(s: Record<string, unknown>): TOutstandingSearch {
  const out: TOutstandingSearch = {};
  if (typeof s.senderId === 'string' && UUID.test(s.senderId)) out.senderId = s.senderId;
  if (typeof s.search === 'string' && s.search.trim()) out.search = s.search.slice(0, 200);
  const page = Number(s.page);
  if (Number.isInteger(page) && page > 1 && page < 100_000) out.page = page;
  if (typeof s.sort === 'string' && (OUTSTANDING_SORTS as readonly string[]).includes(s.sort))
    out.sort = s.sort as TOutstandingSearch['sort'];
  if (s.direction === 'asc' || s.direction === 'desc') out.direction = s.direction;
  return out;
}
