import { toast } from '@web/ui';
import { resendSignUpCode } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { showAuthError } from './auth-errors';

/** Mails a fresh verification link to someone who has not confirmed their address yet. */
export async function resendVerificationLink(username: string): Promise<void> {
  try {
    await resendSignUpCode({ username });
    toast.success(`We sent a new verification link to ${username}.`);
  } catch (error) {
    showAuthError(error);
  }
}
