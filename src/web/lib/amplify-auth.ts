import { COOKIE_DEFAULT_EXPIRY_DAYS, ERROR_TOAST_MS, SIGN_OUT_REDIRECT_TIMEOUT_MS } from '@domain/constants';
import { ROUTE_PATHS } from '@domain/route-guard';
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage, Hub } from 'aws-amplify/utils';
import { toast } from '../ui/toaster';
import { appConfig } from './config';
import { type TRedirectOutcome, tellRedirectSignIn } from './hosted-sign-in';

let configured = false;

/**
 * aws-amplify signs staff in against the identity provider the server names (the embedded one, or
 * a real Cognito pool). Tokens live in cookies so the route guard can see a session before any call.
 */
function configureAuth(): void {
  if (configured) return;
  configured = true;
  const { idp } = appConfig;
  // Before configure: Amplify finishes a returning redirect as soon as it is configured, often
  // before the login page has mounted to hear how it went (lib/hosted-sign-in.ts keeps it till then).
  Hub.listen('auth', ({ payload }) => {
    const outcome: TRedirectOutcome | null =
      payload.event === 'signInWithRedirect'
        ? { ok: true }
        : payload.event === 'signInWithRedirect_failure'
          ? { ok: false, error: redirectSignInError(payload.data?.error) }
          : null;
    if (outcome) tellRedirectSignIn(outcome);
  });
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: idp.userPoolId,
        userPoolClientId: idp.clientId,
        ...(idp.endpointPath ? { userPoolEndpoint: `${window.location.origin}${idp.endpointPath}` } : {}),
        signUpVerificationMethod: 'link',
        loginWith: {
          email: true,
          // Hosted sign-in: back to the login page, whose Amplify listener completes the flow.
          ...(appConfig.oauth
            ? {
                oauth: {
                  domain: appConfig.oauth.domain,
                  scopes: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'],
                  redirectSignIn: [`${window.location.origin}/auth/login`],
                  redirectSignOut: [`${window.location.origin}/auth/login`],
                  responseType: 'code' as const,
                },
              }
            : {}),
        },
      },
    },
  });
  // Plain-http localhost cannot carry secure cookies; everywhere else they are secure.
  const secure = window.location.protocol === 'https:';
  cognitoUserPoolsTokenProvider.setKeyValueStorage(
    new CookieStorage({ path: '/', expires: COOKIE_DEFAULT_EXPIRY_DAYS, secure, sameSite: 'lax' }),
  );
}

/** The staff access token for the Authorization header, refreshed by Amplify when near expiry. */
export async function staffAuthHeaders(): Promise<Record<string, string>> {
  try {
    const session = await fetchAuthSession();
    const token = session.tokens?.accessToken?.toString();
    return token ? { authorization: `Bearer ${token}` } : {};
  } catch {
    // An invalid session: Amplify has cleared its tokens; the call goes out without one and the
    // server's 401 leads to the login.
    return {};
  }
}

/**
 * Signs out of the identity provider on this browser; never throws (leaving must always work).
 * Answers whether the browser is on its way to the provider's /logout: after a hosted sign-in,
 * Amplify ends the provider's own session there too, which comes back to the login page (the
 * caller must not navigate elsewhere meanwhile). Past 3 s: "Signout timeout fail", and the login.
 */
export async function signOutIdentity(options: { global?: boolean } = {}): Promise<boolean> {
  const hosted = appConfig.oauth !== null && signedInThroughRedirect();
  try {
    await signOut({ global: options.global ?? false });
  } catch {
    // Tokens are cleared locally even when the provider cannot be reached.
    return false;
  }
  if (hosted) watchSignOutRedirect();
  return hosted;
}

/**
 * What Amplify itself reads to decide to go through /logout (its `oauthSignIn` marks, in local
 * storage and beside the tokens): its token provider's own getter did not see the cookie one.
 */
function signedInThroughRedirect(): boolean {
  const prefix = `CognitoIdentityServiceProvider.${appConfig.idp.clientId}`;
  try {
    if (window.localStorage.getItem(`${prefix}.oauthSignIn`)?.startsWith('true')) return true;
  } catch {
    // Storage refused (privacy settings): the cookie mark still tells.
  }
  return document.cookie
    .split('; ')
    .some((c) => c.startsWith(prefix) && /\.oauthMetadata=.*oauthSignIn%22:true/.test(c));
}

function watchSignOutRedirect(): void {
  window.setTimeout(() => {
    // Still here: the provider did not answer. Stop waiting for it, say so, then leave anyway
    // (the local sign-out is done) once the message has been seen.
    window.stop();
    toast.error('Signout timeout fail', { id: 'signout-timeout', duration: ERROR_TOAST_MS });
    window.setTimeout(() => window.location.assign(ROUTE_PATHS['auth-login']), ERROR_TOAST_MS);
  }, SIGN_OUT_REDIRECT_TIMEOUT_MS);
}

/** Amplify's words for a returning state that is not the one it stored, in SPEC's (§5). */
function redirectSignInError(error: unknown): unknown {
  return error instanceof Error && error.message === 'An error occurred while validating the state.'
    ? new Error('Invalid state in OAuth flow')
    : error;
}

// Configured as soon as this module runs: every module that calls Amplify imports this one first
// (lib/auth.ts loads it for a staff session or a hosted sign-in coming back; the sign-in screens
// import it), so none can call it unconfigured.
configureAuth();
