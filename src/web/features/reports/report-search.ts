import { CLIENT_STATUSES, CLIENT_TYPES } from '@domain/clients-constants';
import { addDays } from '@domain/days';
import { BILLING_REPORT_DIMENSIONS, type TBillingReportDimension } from '@domain/report-dimensions';

// A report's filters live in the URL, so a view can be shared or saved as a link. Anything that
// does not parse is dropped here; the server validates again.

export type TReportSearch = {
  from?: string;
  to?: string;
  groupId?: string;
  serviceId?: string;
  memberId?: string;
  clientType?: (typeof CLIENT_TYPES)[number];
  clientStatus?: (typeof CLIENT_STATUSES)[number];
  tag?: string;
  page?: number;
  sort?: string;
  direction?: 'asc' | 'desc';
  view?: 'grid';
  /** The billing summary's rows: by month, client, service, partner, member or project. */
  by?: TBillingReportDimension;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseReportSearch(search: Record<string, unknown>): TReportSearch {
  const out: TReportSearch = {};
  const str = (k: string) => (typeof search[k] === 'string' ? (search[k] as string) : undefined);
  for (const k of ['from', 'to'] as const) {
    const v = str(k);
    if (v && DAY.test(v)) out[k] = v;
  }
  for (const k of ['groupId', 'serviceId', 'memberId'] as const) {
    const v = str(k);
    if (v && UUID.test(v)) out[k] = v;
  }
  const type = str('clientType');
  if (type && (CLIENT_TYPES as readonly string[]).includes(type))
    out.clientType = type as TReportSearch['clientType'];
  const status = str('clientStatus');
  if (status && (CLIENT_STATUSES as readonly string[]).includes(status))
    out.clientStatus = status as TReportSearch['clientStatus'];
  const tag = str('tag');
  if (tag && tag.length <= 40) out.tag = tag;
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1 && page < 100_000) out.page = page;
  const sort = str('sort');
  if (sort && /^[a-zA-Z]{1,32}$/.test(sort)) out.sort = sort;
  if (search.direction === 'asc' || search.direction === 'desc') out.direction = search.direction;
  if (search.view === 'grid') out.view = 'grid';
  const by = str('by');
  if (by && (BILLING_REPORT_DIMENSIONS as readonly string[]).includes(by))
    out.by = by as TBillingReportDimension;
  return out;
}

/** The period a report shows when the URL names none: this month and the two before it. */
export function defaultPeriod(today: string): { from: string; to: string } {
  const monthStart = `${today.slice(0, 7)}-01`;
  const back = `${addDays(`${addDays(monthStart, -1).slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const nextMonth = `${addDays(monthStart, 32).slice(0, 7)}-01`;
  return { from: back, to: addDays(nextMonth, -1) };
}

/** The filters as the procedures take them (page and sort aside). */
export function filtersOf(s: TReportSearch, today: string) {
  const period = defaultPeriod(today);
  return {
    from: s.from ?? period.from,
    to: s.to ?? period.to,
    groupId: s.groupId,
    serviceId: s.serviceId,
    memberId: s.memberId,
    clientType: s.clientType,
    clientStatus: s.clientStatus,
    tag: s.tag,
  };
}

/** The page and order a report's table asks the server for. */
export function reportPaging(s: TReportSearch) {
  return { page: s.page ?? 1, sort: (s.sort as 'name') ?? 'name', direction: s.direction ?? 'asc' };
}
