import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { TOidcProvider } from '../../config';
import { createChallenge, takeChallenge } from '../challenges';
import type { TIdpContext } from '../deps';
import { findUserByName, type TIdpUser } from '../users';
import type { TAuthorizeRequest } from './request';

// Sign-in through an external OpenID Connect provider (Google Workspace, Entra ID, …) with
// openid-client: authorization code with PKCE, state and nonce. The pending sign-in is a challenge
// row keyed by the state, bound to this browser by a cookie; the person is the member whose
// verified email the provider vouches for.

export const CALLBACK_PATH = '/api/idp/oauth2/idpresponse';
const BROWSER_COOKIE = 'idp_federation';

export const callbackUrl = (ctx: TIdpContext) => `${ctx.config.publicUrl}${CALLBACK_PATH}`;

// Discovery once per provider and process; a failure is forgotten so the next sign-in retries.
const discovered = new Map<string, Promise<oidc.Configuration>>();

function configurationOf(provider: TOidcProvider): Promise<oidc.Configuration> {
  const key = `${provider.issuer}\u0000${provider.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    const insecure = new URL(provider.issuer).protocol === 'http:';
    found = oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      provider.clientSecret,
      undefined,
      // config.ts allows http:// only for a provider on this machine.
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

/** The provider's authorization URL for this request (the pending sign-in stored, the cookie set). */
export async function startFederation(
  ctx: TIdpContext,
  reply: FastifyReply,
  provider: TOidcProvider,
  request: TAuthorizeRequest,
): Promise<string> {
  const configuration = await configurationOf(provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const browser = randomBytes(32).toString('base64url');
  const token = await createChallenge(ctx.db, {
    userId: null,
    kind: 'oauth_federation',
    data: {
      provider: provider.name,
      verifier,
      nonce,
      browser: digest(browser),
      request: JSON.stringify(request),
    },
  });
  const state = Buffer.from(token, 'base64').toString('base64url');
  reply.setCookie(BROWSER_COOKIE, browser, {
    path: CALLBACK_PATH,
    httpOnly: true,
    // The provider sends the browser back with a top-level GET: lax cookies go along.
    sameSite: 'lax',
    secure: ctx.config.publicUrl.startsWith('https:'),
    maxAge: 600,
  });
  return oidc
    .buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUrl(ctx),
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    .toString();
}

export type TFederationResult =
  | { ok: true; user: TIdpUser; request: TAuthorizeRequest }
  | { ok: false; title: string; message: string; request?: TAuthorizeRequest };

/** The provider's answer at the callback: the member it vouches for, or why not. */
export async function finishFederation(
  ctx: TIdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<TFederationResult> {
  const query = new URL(req.url, 'http://x').searchParams;
  const state = query.get('state') ?? '';
  const expired = {
    ok: false as const,
    title: 'Sign-in expired',
    message: 'This sign-in has expired or was already used. Start again from the sign-in page.',
  };
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(state)) return expired;
  const pending = await takeChallenge(ctx.db, state, 'oauth_federation');
  const browser = req.cookies[BROWSER_COOKIE] ?? '';
  reply.clearCookie(BROWSER_COOKIE, { path: CALLBACK_PATH });
  if (!pending || !browser || digest(browser) !== pending.data.browser) return expired;
  const request = JSON.parse(pending.data.request ?? '{}') as TAuthorizeRequest;
  const providers = ctx.config.idp.mode === 'embedded' ? ctx.config.idp.hosted.providers : [];
  const provider = providers.find((p) => p.name === pending.data.provider);
  if (!provider) return { ...expired, request };
  const name = provider.name;
  if (query.get('error'))
    return {
      ok: false,
      title: 'Sign-in cancelled',
      message: `${name} did not sign you in (${query.get('error')}).`,
      request,
    };
  let claims: oidc.IDToken | undefined;
  try {
    const configuration = await configurationOf(provider);
    const current = new URL(`${callbackUrl(ctx)}?${query.toString()}`);
    const tokens = await oidc.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: pending.data.verifier,
      expectedState: state,
      expectedNonce: pending.data.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    req.log.warn({ err: error, provider: name }, 'external identity provider sign-in failed');
    return {
      ok: false,
      title: 'Sign-in failed',
      message: `${name} could not confirm who you are. Try again.`,
      request,
    };
  }
  const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified = claims?.email_verified === true || claims?.email_verified === 'true';
  if (!email || !verified)
    return {
      ok: false,
      title: 'Email not verified',
      message: `${name} did not confirm an email address for your account, so it cannot be matched to a member.`,
      request,
    };
  const user = await findUserByName(ctx.db, email);
  if (!user || user.email !== email || !user.emailVerified || !user.enabled || user.status !== 'CONFIRMED')
    return {
      ok: false,
      title: 'No account for this email',
      message: `No member signs in with ${email}. Ask your firm's administrator to invite this address.`,
      request,
    };
  return { ok: true, user, request };
}
