import { eq } from 'drizzle-orm';
import { inviteState, isInvitedAddress, isInviteKey, SIGN_UP_INVITE_KEY } from '../../../domain/team';
import type { TExecutor } from '../../db/client';
import { memberInvites } from '../../db/schema';
import type { TPreSignUpRequest, TPreSignUpResponse } from '../../idp/deps';
import { hashKey } from './invite-keys';

const AS_USUAL: TPreSignUpResponse = { autoConfirmUser: false, autoVerifyEmail: false };

/**
 * The identity provider's pre sign-up check. A sign-up from an open invitation's link, for the very
 * address invited, is confirmed with that address verified: only someone who read the invitation
 * mail holds its key, so a second mail to prove the mailbox proves nothing more. Anything else (no
 * key, an unknown, expired, withdrawn or used one, another address) signs up as usual, with a code
 * mailed to the address typed. Joining the firm stays a separate, audited step (acceptInvite),
 * which spends the invitation.
 */
export async function confirmInvitedSignUp(
  db: TExecutor,
  request: TPreSignUpRequest,
): Promise<TPreSignUpResponse> {
  const key = request.validationData[SIGN_UP_INVITE_KEY];
  const email = request.userAttributes.email;
  if (!key || !email || !isInviteKey(key)) return AS_USUAL;
  const [invite] = await db
    .select({
      email: memberInvites.email,
      expiresAt: memberInvites.expiresAt,
      acceptedAt: memberInvites.acceptedAt,
      revokedAt: memberInvites.revokedAt,
    })
    .from(memberInvites)
    .where(eq(memberInvites.keyHash, hashKey(key)))
    .limit(1);
  if (!invite || inviteState(invite) !== 'open' || !isInvitedAddress(invite.email, email)) return AS_USUAL;
  return { autoConfirmUser: true, autoVerifyEmail: true };
}
