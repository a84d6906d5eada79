import { z } from 'zod';
import { zString } from './fields';
import { ZPageInput } from './pagination';
import { INVITE_KEY, MEMBER_LIST_STATUSES, TEAM_SORTS } from './team-constants';

export { INVITE_KEY, isInviteKey, MEMBER_LIST_STATUSES, TEAM_SORTS } from './team-constants';

// The firm's members and the invitations that bring new ones in (/team/members, /auth/invite/{key}).

/** How long an emailed invitation link stays valid. */
export const INVITE_TTL_DAYS = 7;

/** lastActiveAt is written at most this often per member, so the staff call path stays cheap. */
export const LAST_ACTIVE_THROTTLE_MS = 5 * 60_000;

/** The seeded role that goes with the owner flag: it moves only by transferring ownership. */
export const OWNER_ROLE_NAME = 'Owner';

/**
 * The entry of the identity provider's SignUp ValidationData that carries the invitation a person
 * registers from: its key proves they read the invited address's mail, so that address needs no
 * verification mail of its own.
 */
export const SIGN_UP_INVITE_KEY = 'inviteKey';

/** An address is the invited one whatever its case (both are stored lower-cased). */
export const isInvitedAddress = (invited: string, email: string): boolean =>
  invited.trim().toLowerCase() === email.trim().toLowerCase();

export const ZTeamListInput = ZPageInput.extend({
  sort: z.enum(TEAM_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  status: z.enum(MEMBER_LIST_STATUSES).optional(),
  roleId: z.uuid('Choose a role from the list').optional(),
});
export type TTeamListInput = z.input<typeof ZTeamListInput>;
export type TTeamListQuery = z.output<typeof ZTeamListInput>;

export const ZInviteListInput = ZPageInput.pick({ page: true, pageSize: true });
export type TInviteListQuery = z.output<typeof ZInviteListInput>;

const email = zString()
  .trim()
  .toLowerCase()
  .min(1, 'Enter an email address')
  .max(254, 'Email address is too long')
  .pipe(z.email('Enter a valid email address'));

export const ZInviteMember = z.object({
  email,
  roleId: z.uuid('Choose a role'),
});
export type TInviteMember = z.infer<typeof ZInviteMember>;

export const ZMemberRef = z.object({ memberId: z.uuid('Choose a member from the list') });
export const ZInviteRef = z.object({ inviteId: z.uuid('Choose an invitation from the list') });
export const ZChangeRole = z.object({
  memberId: z.uuid('Choose a member from the list'),
  roleId: z.uuid('Choose a role'),
});
export type TChangeRole = z.infer<typeof ZChangeRole>;

export const ZInviteKey = z.object({
  key: zString().regex(INVITE_KEY, 'This invitation link is not valid'),
});

/** What an invitation link shows before it is accepted. */
export const INVITE_STATES = ['open', 'expired', 'revoked', 'accepted'] as const;
export type TInviteState = (typeof INVITE_STATES)[number];

export function inviteState(
  invite: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now = new Date(),
): TInviteState {
  if (invite.acceptedAt) return 'accepted';
  if (invite.revokedAt) return 'revoked';
  if (invite.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** The sentence each closed state shows on /auth/invite/{key} and in accept's refusal. */
export function inviteStateMessage(state: Exclude<TInviteState, 'open'>, firmName: string): string {
  switch (state) {
    case 'expired':
      return `This invitation has expired. Ask ${firmName} to send you a new one.`;
    case 'revoked':
      return `This invitation was withdrawn by ${firmName}. Ask them if you still need access.`;
    case 'accepted':
      return 'This invitation has already been used. Sign in to reach the firm.';
  }
}
