import { ROUTE_PATHS } from '@domain/route-guard';
import { resetAnalytics } from './analytics';
import { signOutIdentity } from './auth';
import { resetChat } from './chat-widget';
import { trpcClient } from './trpc';

/**
 * Ends the staff session: the server records it and clears what it can, Amplify revokes the
 * refresh token and drops its cookies, then a full page load to the login leaves no cached query
 * of the previous person behind.
 */
export async function signOutStaff(): Promise<void> {
  try {
    await trpcClient.auth.logout.mutate();
  } catch {
    // The call already showed its toast; the browser still leaves the session.
  }
  await signOutIdentity();
  resetChat();
  resetAnalytics();
  window.location.assign(ROUTE_PATHS['auth-login']);
}
