import { z } from 'zod';
import { PORTAL_CODE_LENGTH, PORTAL_INVITE_KEY } from './client-users-constants';
import { zString } from './fields';
import { ZPageInput } from './pagination';

export { isPortalInviteKey, PORTAL_CODE_LENGTH, PORTAL_INVITE_KEY } from './client-users-constants';

// Client users (the portal's people, /clients/{id}/client-users) and how they get in
// (/clientportal/auth/invite/{key}, /clientportal/auth/login with a one-time code).

/** How long an emailed portal invitation stays valid (as the staff invitation). */
export const PORTAL_INVITE_TTL_DAYS = 7;
export const PORTAL_CODE_TTL_MINUTES = 10;
export const PORTAL_CODE_MAX_ATTEMPTS = 5;

export const CLIENT_USER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type TClientUserStatus = (typeof CLIENT_USER_STATUSES)[number];
export const CLIENT_USER_STATUS_LABELS: Record<TClientUserStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
};

export const ZEmail = zString()
  .trim()
  .toLowerCase()
  .min(1, 'Enter an email address')
  .max(254, 'Email address is too long')
  .pipe(z.email('Enter a valid email address'));

const clientId = z.uuid('Choose a client');

export const ZClientUserListInput = ZPageInput.pick({ page: true, pageSize: true, search: true }).extend({
  clientId,
});
export type TClientUserListInput = z.input<typeof ZClientUserListInput>;
export type TClientUserListQuery = z.output<typeof ZClientUserListInput>;

export const ZClientUserInviteForm = z.object({
  email: ZEmail,
  name: zString().trim().min(1, 'Enter their name').max(120, 'Name must be at most 120 characters'),
  phone: zString()
    .trim()
    .max(40, 'Phone must be at most 40 characters')
    .regex(/^[+0-9 ()./-]*$/, 'Phone may contain digits, spaces and + ( ) - . / only'),
});
export type TClientUserInviteForm = z.input<typeof ZClientUserInviteForm>;
export const ZClientUserInvite = ZClientUserInviteForm.extend({ clientId });
export type TClientUserInvite = z.output<typeof ZClientUserInvite>;

export const ZClientUserRef = z.object({
  clientId,
  clientUserId: z.uuid('Choose a portal user from the list'),
});
export type TClientUserRef = z.infer<typeof ZClientUserRef>;

export const ZPortalInviteKey = z.object({
  key: zString().regex(PORTAL_INVITE_KEY, 'This invitation link is not valid'),
});

export const ZPortalCodeRequest = z.object({ email: ZEmail });
export type TPortalCodeRequest = z.input<typeof ZPortalCodeRequest>;

export const ZPortalCode = zString()
  .trim()
  .regex(
    new RegExp(`^[0-9]{${PORTAL_CODE_LENGTH}}$`),
    `Enter the ${PORTAL_CODE_LENGTH}-digit code from the email`,
  );

export const ZPortalCodeVerify = z.object({ email: ZEmail, code: ZPortalCode });
export type TPortalCodeVerify = z.input<typeof ZPortalCodeVerify>;

/** What a portal invitation link shows. `disabled`: the person's access was turned off meanwhile. */
export const PORTAL_INVITE_STATES = ['open', 'expired', 'revoked', 'accepted', 'disabled'] as const;
export type TPortalInviteState = (typeof PORTAL_INVITE_STATES)[number];

export function portalInviteState(
  invite: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date; userStatus: TClientUserStatus },
  now = new Date(),
): TPortalInviteState {
  if (invite.acceptedAt) return 'accepted';
  if (invite.revokedAt) return 'revoked';
  if (invite.userStatus === 'disabled') return 'disabled';
  if (invite.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** The sentence each closed state shows on the invitation page and in acceptInvite's refusal. */
export function portalInviteMessage(state: Exclude<TPortalInviteState, 'open'>, firmName: string): string {
  switch (state) {
    case 'expired':
      return `This invitation has expired. Ask ${firmName} to send you a new one.`;
    case 'revoked':
      return `This invitation was withdrawn by ${firmName}. Ask them if you still need access.`;
    case 'accepted':
      return 'This invitation has already been used. Sign in with a code sent to your email.';
    case 'disabled':
      return `Your access to ${firmName}'s portal has been turned off. Contact them if you need it back.`;
  }
}

export const PORTAL_MESSAGES = {
  codeSent: (email: string) =>
    `If ${email} has access to a client portal, a ${PORTAL_CODE_LENGTH}-digit code is on its way. It works for ${PORTAL_CODE_TTL_MINUTES} minutes.`,
  codeWrong: (left: number) => `That code is not right. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  codeDead:
    'That code can no longer be used (expired, already used, or too many wrong tries). Request a new code.',
  tooManyCodeRequests: (minutes: number) =>
    `Too many codes requested. Wait ${minutes} minutes, then request a new one.`,
  tooManySignInAttempts: (minutes: number) =>
    `Too many sign-in attempts. Wait ${minutes} minutes, then try again.`,
} as const;
