import { COOKIE_DEFAULT_EXPIRY_DAYS } from '@domain/constants';
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage } from 'aws-amplify/utils';
import { appConfig } from './config';

let configured = false;

/**
 * aws-amplify signs staff in against the identity provider the server names (the embedded one, or
 * a real Cognito pool). Tokens live in cookies so the route guard can see a session before any call.
 */
export function configureAuth(): void {
  if (configured) return;
  configured = true;
  const { idp } = appConfig;
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

/** Signs out of the identity provider on this browser; never throws (leaving must always work). */
export async function signOutIdentity(options: { global?: boolean } = {}): Promise<void> {
  try {
    await signOut({ global: options.global ?? false });
  } catch {
    // Tokens are cleared locally even when the provider cannot be reached.
  }
}
