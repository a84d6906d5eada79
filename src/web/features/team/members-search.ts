import type { TTeamListInput } from '@domain/team';
import { MEMBER_LIST_STATUSES, TEAM_SORTS } from '@domain/team-constants';
import { listQueryParams, oneOfParam, parseListParams, type TListParams } from '@web/ui';

/** /team/members' search params: the list's page, sort, search and filter, so a view can be shared. */
export type TMembersSearch = TListParams<(typeof TEAM_SORTS)[number]> & {
  status?: (typeof MEMBER_LIST_STATUSES)[number];
};

/** Tolerant: a hand-edited or stale URL falls back to the defaults instead of failing. */
export function parseMembersSearch(search: Record<string, unknown>): TMembersSearch {
  return {
    ...parseListParams(search, TEAM_SORTS),
    status: oneOfParam(MEMBER_LIST_STATUSES, search.status),
  };
}

export const MEMBERS_PAGE_SIZE = 25;
export const INVITES_PAGE_SIZE = 10;

export function membersListInput(search: TMembersSearch): TTeamListInput {
  return {
    ...listQueryParams(search, { sort: 'name', pageSize: MEMBERS_PAGE_SIZE }),
    ...(search.status ? { status: search.status } : {}),
  };
}
