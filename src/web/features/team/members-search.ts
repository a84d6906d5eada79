import { MEMBER_LIST_STATUSES, TEAM_SORTS, type TTeamListInput } from '@domain/team';

/** /team/members' search params: the list's page, sort, search and filter, so a view can be shared. */
export type TMembersSearch = {
  page?: number;
  pageSize?: number;
  sort?: (typeof TEAM_SORTS)[number];
  direction?: 'asc' | 'desc';
  search?: string;
  status?: (typeof MEMBER_LIST_STATUSES)[number];
};

const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
const oneOf = <T extends string>(values: readonly T[], value: unknown) =>
  values.includes(value as T) ? (value as T) : undefined;

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseMembersSearch(search: Record<string, unknown>): TMembersSearch {
  const text = typeof search.search === 'string' ? search.search.slice(0, 200) : undefined;
  return {
    page: positive(search.page),
    pageSize: positive(search.pageSize) && Math.min(positive(search.pageSize) ?? 0, 200),
    sort: oneOf(TEAM_SORTS, search.sort),
    direction: oneOf(['asc', 'desc'] as const, search.direction),
    search: text || undefined,
    status: oneOf(MEMBER_LIST_STATUSES, search.status),
  };
}

export const MEMBERS_PAGE_SIZE = 25;
export const INVITES_PAGE_SIZE = 10;

export function membersListInput(search: TMembersSearch): TTeamListInput {
  return {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? MEMBERS_PAGE_SIZE,
    sort: search.sort ?? 'name',
    direction: search.direction ?? 'asc',
    ...(search.search ? { search: search.search } : {}),
    ...(search.status ? { status: search.status } : {}),
  };
}
