import { ROUTE_PATHS } from '@domain/route-guard';
import { resetAnalytics } from './analytics';
import { signOutIdentity } from './auth';
import { resetChat } from './chat-widget';
import { trpcClient } from './trpc';

/**
 * Ends the staff session: the server records it and clears what it can, Amplify revokes the
 * refresh token and drops its cookies, then a full page load to the login leaves no cached query
 * of the previous person behind. Only this browser, unless the person chose `everywhere`: then
 * the identity provider ends every sign-in of theirs first (GlobalSignOut, which it logs), while
 * this browser's token still works, and this browser leaves as usual. After a hosted sign-in the
 * way out passes through the identity provider's /logout (lib/auth.ts).
 */
export async function signOutStaff(options: { everywhere?: boolean } = {}): Promise<void> {
  let redirecting = options.everywhere ? await signOutIdentity({ global: true }) : false;
  try {
    await trpcClient.auth.logout.mutate();
  } catch {
    // The call already showed its toast; the browser still leaves the session.
  }
  if (!options.everywhere) redirecting = await signOutIdentity();
  resetChat();
  resetAnalytics();
  // After a hosted sign-in the provider's /logout brings the browser to the login page itself.
  if (!redirecting) window.location.assign(ROUTE_PATHS['auth-login']);
}
