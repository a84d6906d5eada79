import { hasStaffCookie } from './cookies';
import { hostedSignInPending } from './hosted-sign-in';

// The staff side's sign-in (aws-amplify, lib/amplify-auth.ts) is a chunk of its own, fetched by
// staff screens only: the client portal signs in with the product's own portal session and never
// downloads it.
const amplify = () => import('./amplify-auth');

/**
 * Starts loading (and so configuring) Amplify where it is wanted at once: a staff session's first
 * calls need its token, and a hosted sign-in coming back is finished by Amplify as it is configured.
 * Signed out, the screens that call Amplify fetch it themselves (the login page on the first touch
 * of its form), so the login page is drawn without it.
 */
export function startStaffAuth(): void {
  if (window.location.pathname.startsWith('/clientportal')) return;
  if (hostedSignInPending()) void import('./amplify-oauth-return');
  else if (hasStaffCookie()) void amplify();
}

/** The staff access token for the Authorization header, refreshed by Amplify when near expiry. */
export async function staffAuthHeaders(): Promise<Record<string, string>> {
  return (await amplify()).staffAuthHeaders();
}

/** Signs out of the identity provider on this browser (see amplify-auth.ts); never throws. */
export async function signOutIdentity(options: { global?: boolean } = {}): Promise<boolean> {
  try {
    return await (await amplify()).signOutIdentity(options);
  } catch {
    // Its chunk could not be fetched: leaving must still work (the server's session goes anyway).
    return false;
  }
}
