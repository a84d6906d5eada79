import { hasForbiddenCharacter } from '../../../domain/fields';
import type { TConfig } from '../../config';

// An /oauth2/authorize request as Cognito's managed login reads it. A request whose client or
// redirect_uri cannot be trusted is answered with a page; any other fault goes back to the
// (registered) redirect_uri as an OAuth error, as RFC 6749 §4.1.2.1 says.

/** What this pool grants; `aws.cognito.signin.user.admin` lets Amplify call GetUser and the rest. */
export const HOSTED_SCOPES = ['openid', 'email', 'profile', 'phone', 'aws.cognito.signin.user.admin'];

export type TAuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string;
  nonce: string;
  /** Null: this pool's own sign-in page (Cognito's `COGNITO`). */
  identityProvider: string | null;
};

export type TParsedAuthorize =
  | { ok: true; request: TAuthorizeRequest }
  | { ok: false; page: string }
  | { ok: false; redirect: string };

/** The app's origins: the public URL's, and the HTTPS listener's when there is one. */
export function appOrigins(config: TConfig): string[] {
  const origins = [new URL(config.publicUrl).origin];
  if (config.https) origins.push(config.https.origin);
  return origins;
}

/** A registered callback (or logout) URL; unregistered, any address on the app's own origins. */
export function allowedRedirect(config: TConfig, uri: string, kind: 'callback' | 'logout'): boolean {
  if (config.idp.mode !== 'embedded' || !URL.canParse(uri)) return false;
  const list = kind === 'callback' ? config.idp.hosted.callbackUrls : config.idp.hosted.logoutUrls;
  if (list) return list.includes(uri);
  const url = new URL(uri);
  return !url.username && !url.password && !url.hash && appOrigins(config).includes(url.origin);
}

/** A query or form field: one string (a repeated or odd field counts as absent and fails later). */
export function field(source: unknown, name: string, max = 2048): string {
  const value = (source as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string' || value.length > max || hasForbiddenCharacter(value)) return '';
  return value;
}

export function errorRedirect(redirectUri: string, error: string, description: string, state: string) {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

export function parseAuthorize(config: TConfig, source: unknown): TParsedAuthorize {
  const clientId = field(source, 'client_id', 128);
  const redirectUri = field(source, 'redirect_uri');
  if (clientId !== config.idp.clientId) return { ok: false, page: 'The app client is not known.' };
  if (!redirectUri || !allowedRedirect(config, redirectUri, 'callback'))
    return { ok: false, page: 'The redirect_uri is not registered for this app client.' };
  const state = field(source, 'state');
  const fail = (error: string, description: string): TParsedAuthorize => ({
    ok: false,
    redirect: errorRedirect(redirectUri, error, description, state),
  });
  if (field(source, 'response_type', 32) !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  // A public client (no secret): PKCE with S256 is required, as RFC 9700 asks of public clients.
  const codeChallenge = field(source, 'code_challenge', 128);
  if (!codeChallenge) return fail('invalid_request', 'code_challenge is required');
  if (field(source, 'code_challenge_method', 16) !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge))
    return fail('invalid_request', 'code_challenge must be a base64url SHA-256');
  const scopes = field(source, 'scope', 512).split(/[ +]+/).filter(Boolean);
  if (scopes.some((s) => !HOSTED_SCOPES.includes(s))) return fail('invalid_scope', 'unknown scope');
  const provider = field(source, 'identity_provider', 64);
  const providers = config.idp.mode === 'embedded' ? config.idp.hosted.providers : [];
  if (provider && provider !== 'COGNITO' && !providers.some((p) => p.name === provider))
    return fail('invalid_request', 'identity_provider is not configured');
  return {
    ok: true,
    request: {
      clientId,
      redirectUri,
      // Cognito grants every scope of the client when none is asked for.
      scope: (scopes.length ? [...new Set(scopes)] : HOSTED_SCOPES).join(' '),
      state,
      codeChallenge,
      nonce: field(source, 'nonce', 512),
      identityProvider: provider && provider !== 'COGNITO' ? provider : null,
    },
  };
}

/** The request as authorize parameters again (hidden fields of a form, a provider's link). */
export function authorizeParams(request: TAuthorizeRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    ...(request.nonce ? { nonce: request.nonce } : {}),
  };
}

/** Where the browser goes with a new code. */
export function codeRedirect(request: TAuthorizeRequest, code: string): string {
  const url = new URL(request.redirectUri);
  url.searchParams.set('code', code);
  if (request.state) url.searchParams.set('state', request.state);
  return url.toString();
}
