import { isInviteKey } from '@domain/team-constants';

/**
 * `?invite={key}` on /auth/register and /auth/login: the invitation a person came from, so that
 * after signing up or in they go back to /auth/invite/{key} instead of onboarding.
 */
export type TInviteSearch = { invite?: string };

export function parseInviteSearch(search: Record<string, unknown>): TInviteSearch {
  const invite = search.invite;
  return typeof invite === 'string' && isInviteKey(invite) ? { invite } : {};
}
