import { ERROR_TOAST_MS } from '@domain/constants';
import { toast } from '@web/ui';
import { resendSignUpCode } from 'aws-amplify/auth';
import '../../lib/amplify-auth';

/** The identity provider's and Amplify's own messages are shown as they are (SPEC.md §5). */
export function showAuthError(error: unknown): void {
  const message = error instanceof Error && error.message ? error.message : 'Network Error';
  toast.error(message, { duration: ERROR_TOAST_MS });
}

/** Mails a fresh verification link to someone who has not confirmed their address yet. */
export async function resendVerificationLink(username: string): Promise<void> {
  try {
    await resendSignUpCode({ username });
    toast.success(`We sent a new verification link to ${username}.`);
  } catch (error) {
    showAuthError(error);
  }
}
