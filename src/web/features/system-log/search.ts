import { SYSTEM_LOG_SORTS } from '@domain/system-log-constants';
import { isRecordId } from '../../lib/route-guard';
import { oneOfParam } from '../../ui/list-search';

// The system log screen's URL, read without zod (the route file is on the first page): a bad or stale
// value falls back to its default rather than failing. The same rules as the zod schema it replaces.

const PAGE_SIZES = [25, 50, 100] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export type TSystemLogSearch = {
  page: number;
  pageSize: (typeof PAGE_SIZES)[number];
  sort: (typeof SYSTEM_LOG_SORTS)[number];
  direction: 'asc' | 'desc';
  search?: string;
  actorId?: string;
  recordType?: string;
  action?: string;
  from?: string;
  to?: string;
};

/** Trimmed text of at most 200 characters (longer is dropped, not cut). */
const text = (value: unknown) => {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length <= 200 ? trimmed : undefined;
};
const day = (value: unknown) => (typeof value === 'string' && DAY.test(value) ? value : undefined);

export function parseSystemLogSearch(search: Record<string, unknown>): TSystemLogSearch {
  const page = search.page === undefined ? 1 : Number(search.page);
  const pageSize = search.pageSize === undefined ? 50 : Number(search.pageSize);
  const out: TSystemLogSearch = {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.find((size) => size === pageSize) ?? 50,
    sort: oneOfParam(SYSTEM_LOG_SORTS, search.sort) ?? 'at',
    direction: oneOfParam(['asc', 'desc'] as const, search.direction) ?? 'desc',
  };
  const optional = {
    search: text(search.search),
    actorId: typeof search.actorId === 'string' && isRecordId(search.actorId) ? search.actorId : undefined,
    recordType: text(search.recordType),
    action: text(search.action),
    from: day(search.from),
    to: day(search.to),
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(out, { [key]: value });
  return out;
}
