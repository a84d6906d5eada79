// The staff side's sign-in (aws-amplify, lib/amplify-auth.ts) is a chunk of its own, fetched by
// staff screens only: the client portal signs in with the product's own portal session and never
// downloads it.
const amplify = () => import('./amplify-auth');

/** Starts loading (and so configuring) Amplify on staff screens, so a returning hosted sign-in completes. */
export function startStaffAuth(): void {
  if (!window.location.pathname.startsWith('/clientportal')) void amplify();
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
