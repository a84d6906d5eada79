import { ROUTE_PATHS } from '@domain/route-guard';
import { resetAnalytics } from './analytics';
import { signOutIdentity } from './auth';
import { resetChat } from './chat-widget';
import { holdStaffCalls, trpcClient } from './trpc';

// Where the browser goes once signed out, when that is not the login page itself. After a hosted
// sign-in the identity provider's /logout brings the browser back to the login page (the one
// registered sign-out URL), which then forwards it here (takeReturnAfterSignOut).
const RETURN_KEY = 'practice.afterSignOut';

/**
 * The one way out of a staff session, for every sign-out of the web app: the server records it
 * and clears what it can (skipped when the session is already refused, `server: false`), Amplify
 * revokes the refresh token and drops its cookies, then a full page load to `returnTo` (the login
 * by default) leaves no cached query of the previous person behind. Only this browser, unless the
 * person chose `everywhere`: then the identity provider ends every sign-in of theirs first
 * (GlobalSignOut, which it logs), while this browser's token still works. After a hosted sign-in
 * the way out passes through the identity provider's /logout (lib/auth.ts), never cut short.
 * Answers whether the browser is on its way to the provider's /logout.
 */
export async function signOutStaff(
  options: {
    everywhere?: boolean;
    returnTo?: string;
    server?: boolean;
    /** false: the caller opens `returnTo` itself unless this answers true (keeps its toasts). */
    load?: boolean;
  } = {},
): Promise<boolean> {
  let redirecting = options.everywhere ? await signOutIdentity({ global: true }) : false;
  if (options.server !== false) {
    try {
      await trpcClient.auth.logout.mutate();
    } catch {
      // The call already showed its toast; the browser still leaves the session.
    }
  }
  // The page leaves from here (a full load, or the provider's /logout): nothing more to ask the
  // server as this person. A sign-out that stays in the app (load: false) keeps calls flowing
  // for whoever signs in next, unless it turns out to be leaving through /logout.
  if (options.load !== false) holdStaffCalls();
  if (!options.everywhere) redirecting = await signOutIdentity();
  if (redirecting) holdStaffCalls();
  resetChat();
  resetAnalytics();
  const target = safeTarget(options.returnTo) ?? ROUTE_PATHS['auth-login'];
  if (redirecting) {
    // The provider's /logout brings the browser to the login page, which forwards it on.
    if (target !== ROUTE_PATHS['auth-login']) rememberReturn(target);
  } else if (options.load !== false) window.location.assign(target);
  return redirecting;
}

/** The page a sign-out asked to end on, once (null when there is none, or it is not ours). */
export function takeReturnAfterSignOut(): string | null {
  try {
    const target = window.sessionStorage.getItem(RETURN_KEY);
    window.sessionStorage.removeItem(RETURN_KEY);
    return safeTarget(target ?? undefined);
  } catch {
    return null;
  }
}

function rememberReturn(target: string): void {
  try {
    window.sessionStorage.setItem(RETURN_KEY, target);
  } catch {
    // Storage refused: the person lands on the login page, signed out all the same.
  }
}

/** Only a path of this app (never another origin, never `//host`). */
function safeTarget(target: string | undefined): string | null {
  return target && /^\/(?![/\\])/.test(target) ? target : null;
}
