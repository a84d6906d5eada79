import { ROUTE_PATHS } from '@domain/route-guard';
import type { TWebConfig } from '@domain/web-config';
import { appConfig } from './config';

// The hosted sign-in's return, known without Amplify: the login page fetches Amplify only when a
// person signs in there, unless the page is the provider sending the browser back, when Amplify must
// load at once to finish the flow (lib/auth.ts) and tells here how it went (lib/amplify-auth.ts).

export type TRedirectOutcome = { ok: true } | { ok: false; error: unknown };

/**
 * Whether Amplify has a hosted sign-in to finish: the provider's answer in the login page's address
 * (`code` and `state`, or `error`), or one Amplify marked as started in local storage, as after the
 * browser's Back button from the provider (Amplify reports that one as cancelled).
 */
export function hostedSignInPending({
  location = window.location,
  storage = safeLocalStorage(),
  config = appConfig,
}: {
  location?: Pick<Location, 'pathname' | 'search'>;
  storage?: Pick<Storage, 'getItem'> | null;
  config?: Pick<TWebConfig, 'idp' | 'oauth'>;
} = {}): boolean {
  if (!config.oauth) return false;
  const params = new URLSearchParams(location.search);
  if (
    location.pathname === ROUTE_PATHS['auth-login'] &&
    ['code', 'state', 'error'].some((k) => params.has(k))
  )
    return true;
  // Amplify's own key for it (its OAuth store keeps it in local storage, whatever keeps the tokens).
  return storage?.getItem(`CognitoIdentityServiceProvider.${config.idp.clientId}.inflightOAuth`) === 'true';
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage refused (privacy settings): Amplify cannot have marked anything there either.
    return null;
  }
}

let listener: ((outcome: TRedirectOutcome) => void) | null = null;
let missed: TRedirectOutcome | null = null;

/** For Amplify's listener: how the hosted sign-in went, kept until the login page listens. */
export function tellRedirectSignIn(outcome: TRedirectOutcome): void {
  if (listener) listener(outcome);
  else missed = outcome;
}

/** How the hosted sign-in went on coming back, told at once if it was over before the listener. */
export function onRedirectSignIn(next: (outcome: TRedirectOutcome) => void): () => void {
  listener = next;
  const outcome = missed;
  missed = null;
  if (outcome) next(outcome);
  return () => {
    if (listener === next) listener = null;
  };
}
