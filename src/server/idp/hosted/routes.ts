import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../access';
import { createChallenge, restoreChallenge, takeChallenge } from '../challenges';
import type { TIdpContext } from '../deps';
import { IdpError } from '../errors';
import {
  associateTotp,
  checkEmailOtp,
  checkTotpCode,
  EMAIL_OTP,
  emit,
  enabledFactors,
  mfaRequired,
  SOFTWARE_TOKEN_MFA,
  sendEmailOtp,
  totpSealContext,
  verifyPendingTotp,
} from '../mfa';
import { hostedPasswordCheck } from '../operations/auth';
import { replaceRecoveryCodes } from '../recovery-codes';
import { refreshSession, startSession } from '../sessions';
import { TOTP_ISSUER, totpUri } from '../totp';
import { attributesOf, findUserById, type TIdpUser } from '../users';
import { csrfOk, csrfToken, endHostedSession, hostedSessionUser, startHostedSession } from './browser';
import { issueCode, redeemCode } from './codes';
import { CALLBACK_PATH, finishFederation, startFederation } from './federation';
import { messagePage, mfaPage, mfaSetupPage, pagePolicy, recoveryCodesPage, signInPage } from './page';
import { qrCodeSvg } from './qr';
import {
  allowedRedirect,
  appOrigins,
  authorizeParams,
  codeRedirect,
  field,
  parseAuthorize,
  type TAuthorizeRequest,
} from './request';

// Hosted sign-in as Cognito's managed login: /oauth2/authorize (with its sign-in page),
// /oauth2/token, /logout, /oauth2/userInfo, and the callback of external providers. The app's
// "domain" is `<host>/api/idp`, so Amplify's `https://${domain}/oauth2/…` lands here.

export const HOSTED_BASE = '/api/idp';
const AUTHORIZE = `${HOSTED_BASE}/oauth2/authorize`;
const LOGIN = `${HOSTED_BASE}/login`;

const PUBLIC = { config: { auth: 'public' as const } };

export function registerHostedSignIn(app: FastifyInstance, base: Omit<TIdpContext, 'ip' | 'userAgent'>) {
  const ctxOf = (req: FastifyRequest): TIdpContext => ({
    ...base,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
  });
  const config = base.config;
  const providers = config.idp.mode === 'embedded' ? config.idp.hosted.providers : [];
  const callbackOrigins = () => {
    const list = config.idp.mode === 'embedded' ? (config.idp.hosted.callbackUrls ?? []) : [];
    return [...new Set([...appOrigins(config), ...list.map((u) => new URL(u).origin)])];
  };

  function sendPage(reply: FastifyReply, html: string, status = 200) {
    return (
      reply
        .code(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', pagePolicy(callbackOrigins()))
        // The app's no-referrer makes a browser post the form with `Origin: null`, which csrfOk
        // refuses; same-origin keeps the real origin on the form's post and nothing beyond.
        .header('referrer-policy', 'same-origin')
        .send(html)
    );
  }

  function providerLinks(request: TAuthorizeRequest) {
    return providers.map((p) => ({
      name: p.name,
      href: `${AUTHORIZE}?${new URLSearchParams({ ...authorizeParams(request), identity_provider: p.name })}`,
    }));
  }

  function showSignIn(req: FastifyRequest, reply: FastifyReply, request: TAuthorizeRequest, extra = {}) {
    const html = signInPage({
      request,
      csrf: csrfToken(req, reply),
      action: LOGIN,
      providers: providerLinks(request),
      ...extra,
    });
    return sendPage(reply, html, 'error' in extra ? 400 : 200);
  }

  /** The set-up page: the pending key as a QR code and as text (again after a wrong code). */
  function showSetup(
    req: FastifyRequest,
    reply: FastifyReply,
    request: TAuthorizeRequest,
    setup: { session: string; secret: string; account: string; error?: string },
  ) {
    const html = mfaSetupPage({
      request,
      csrf: csrfToken(req, reply),
      action: LOGIN,
      session: setup.session,
      secret: setup.secret,
      qrSvg: qrCodeSvg(totpUri(setup.secret, TOTP_ISSUER, setup.account)),
      error: setup.error,
    });
    return sendPage(reply, html, setup.error ? 400 : 200);
  }

  /** Signed in: the hosted session (a new one unless it goes on), then the code to the app. */
  async function complete(
    req: FastifyRequest,
    reply: FastifyReply,
    user: TIdpUser,
    request: TAuthorizeRequest,
    session: { authTime: number } | null,
  ) {
    const ctx = ctxOf(req);
    const authTime = session?.authTime ?? Math.floor(Date.now() / 1000);
    if (!session) await startHostedSession(ctx, req, reply, user, authTime);
    const code = await issueCode(ctx, { userId: user.id, request, authTime });
    return reply.header('cache-control', 'no-store').redirect(codeRedirect(request, code), 302);
  }

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    // A body the parser refuses (wrong type, too large) is an OAuth invalid_request, never a 500.
    scope.setErrorHandler((error: { statusCode?: number }, req, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) req.log.error({ err: error }, 'hosted sign-in failed');
      return reply
        .code(status >= 500 ? 500 : 400)
        .header('cache-control', 'no-store')
        .send({ error: status >= 500 ? 'server_error' : 'invalid_request' });
    });

    scope.get(AUTHORIZE, PUBLIC, async (req, reply) => {
      const parsed = parseAuthorize(config, req.query);
      if (!parsed.ok)
        return 'page' in parsed
          ? sendPage(reply, messagePage('Sign-in request refused', parsed.page), 400)
          : reply.redirect(parsed.redirect, 302);
      const { request } = parsed;
      const provider = providers.find((p) => p.name === request.identityProvider);
      if (provider) {
        try {
          return reply.redirect(await startFederation(ctxOf(req), reply, provider, request), 302);
        } catch (error) {
          req.log.warn({ err: error, provider: provider.name }, 'external identity provider unreachable');
          return sendPage(
            reply,
            messagePage(
              'Sign-in unavailable',
              `${provider.name} cannot be reached just now. Try again later.`,
            ),
            502,
          );
        }
      }
      const session = await hostedSessionUser(ctxOf(req), req);
      if (session) return complete(req, reply, session.user, request, session);
      return showSignIn(req, reply, request);
    });

    scope.post(LOGIN, PUBLIC, async (req, reply) => {
      const body = req.body;
      const parsed = parseAuthorize(config, body);
      if (!parsed.ok)
        return 'page' in parsed
          ? sendPage(reply, messagePage('Sign-in request refused', parsed.page), 400)
          : reply.redirect(parsed.redirect, 302);
      const { request } = parsed;
      if (!csrfOk(req, field(body, '_csrf', 64)))
        return showSignIn(req, reply, request, { error: 'Your sign-in form expired. Please sign in again.' });
      const ctx = ctxOf(req);
      const step = field(body, 'step', 16);
      if (step === 'mfa_setup' || step === 'mfa_done') {
        const session = field(body, 'session', 4096);
        const kind = step === 'mfa_setup' ? 'hosted_mfa_setup' : 'hosted_mfa_done';
        const taken = await takeChallenge(ctx.db, session, kind);
        const user = taken?.userId ? await findUserById(ctx.db, taken.userId) : null;
        if (!taken || !user?.enabled)
          return showSignIn(req, reply, request, { error: 'Your sign-in expired. Please sign in again.' });
        if (step === 'mfa_done') return complete(req, reply, user, request, null);
        try {
          await verifyPendingTotp(ctx, user, field(body, 'code', 16).trim(), {
            enable: true,
            friendlyName: 'Authenticator app',
          });
        } catch (error) {
          if (!(error instanceof IdpError)) throw error;
          if (!user.totpPendingSecret)
            return showSignIn(req, reply, request, { error: 'Your sign-in expired. Please sign in again.' });
          await restoreChallenge(ctx.db, session, 'hosted_mfa_setup', taken);
          return showSetup(req, reply, request, {
            session,
            secret: await ctx.secrets.open(user.totpPendingSecret, totpSealContext(user.id)),
            account: user.email ?? user.username,
            error: 'That code is not right. Enter the current code from your authenticator app.',
          });
        }
        const codes = await replaceRecoveryCodes(ctx.db, ctx.secrets, user.id);
        await emit(ctx, user.id, { kind: 'recovery_codes_made' });
        const done = await createChallenge(ctx.db, { userId: user.id, kind: 'hosted_mfa_done', data: {} });
        return sendPage(
          reply,
          recoveryCodesPage({ request, csrf: csrfToken(req, reply), action: LOGIN, session: done, codes }),
        );
      }
      if (step === 'mfa') {
        const session = field(body, 'session', 4096);
        const step = await takeChallenge(ctx.db, session, 'hosted_mfa');
        const user = step?.userId ? await findUserById(ctx.db, step.userId) : null;
        if (!step || !user?.enabled)
          return showSignIn(req, reply, request, { error: 'Your sign-in expired. Please sign in again.' });
        try {
          const code = field(body, 'code', 24).trim();
          if (step.data.type === EMAIL_OTP) await checkEmailOtp(ctx, user, code);
          else await checkTotpCode(ctx, user, code);
        } catch (error) {
          if (!(error instanceof IdpError)) throw error;
          if (error.type !== 'CodeMismatchException')
            return showSignIn(req, reply, request, {
              error: 'Too many wrong codes. Wait a moment and sign in again.',
            });
          await restoreChallenge(ctx.db, session, 'hosted_mfa', step);
          const html = mfaPage({
            request,
            csrf: csrfToken(req, reply),
            action: LOGIN,
            session,
            email: step.data.type === EMAIL_OTP,
            error: 'That code is not right. Enter the current code.',
          });
          return sendPage(reply, html, 400);
        }
        return complete(req, reply, user, request, null);
      }
      const email = field(body, 'email', 256).trim();
      const password = field(body, 'password', 512);
      if (!email || !password)
        return showSignIn(req, reply, request, { email, error: 'Enter your email and password.' });
      let user: TIdpUser;
      try {
        user = await hostedPasswordCheck(ctx, email, password);
      } catch (error) {
        if (!(error instanceof IdpError)) throw error;
        const message =
          error.type === 'UserNotConfirmedException'
            ? 'Confirm your email address first: use the link or code we mailed you.'
            : error.type === 'PasswordResetRequiredException'
              ? 'Your password must be changed first: sign in on the app’s own sign-in page.'
              : error.message === 'Password attempts exceeded'
                ? 'Too many failed sign-ins. Wait a moment and try again.'
                : 'Incorrect email or password.';
        return showSignIn(req, reply, request, { email, error: message });
      }
      const factors = enabledFactors(user);
      if (factors.length > 0) {
        // The authenticator when the person has one (the page has no choice step), else the email.
        const type = factors.includes(SOFTWARE_TOKEN_MFA) ? SOFTWARE_TOKEN_MFA : EMAIL_OTP;
        if (type === EMAIL_OTP)
          try {
            await sendEmailOtp(ctx, user);
          } catch (error) {
            if (!(error instanceof IdpError)) throw error;
            return showSignIn(req, reply, request, {
              email,
              error: 'Too many codes sent. Wait a while and try again.',
            });
          }
        const session = await createChallenge(ctx.db, {
          userId: user.id,
          kind: 'hosted_mfa',
          data: { type },
        });
        return sendPage(
          reply,
          mfaPage({
            request,
            csrf: csrfToken(req, reply),
            action: LOGIN,
            session,
            email: type === EMAIL_OTP,
          }),
        );
      }
      if (
        config.idp.mode === 'embedded' &&
        config.idp.mfa !== 'OFF' &&
        (await mfaRequired(ctx, user, 'sign_in'))
      ) {
        // MFA_SETUP, as the app's own sign-in does it: a fresh key, then its first code.
        const secret = await associateTotp(ctx, user);
        const session = await createChallenge(ctx.db, {
          userId: user.id,
          kind: 'hosted_mfa_setup',
          data: {},
        });
        return showSetup(req, reply, request, { session, secret, account: user.email ?? user.username });
      }
      return complete(req, reply, user, request, null);
    });

    scope.get(CALLBACK_PATH, PUBLIC, async (req, reply) => {
      const ctx = ctxOf(req);
      const result = await finishFederation(ctx, req, reply);
      if (!result.ok) {
        const back = result.request
          ? {
              href: `${AUTHORIZE}?${new URLSearchParams(authorizeParams(result.request))}`,
              label: 'Back to sign-in',
            }
          : undefined;
        return sendPage(reply, messagePage(result.title, result.message, back), 400);
      }
      return complete(req, reply, result.user, result.request, null);
    });

    scope.post(`${HOSTED_BASE}/oauth2/token`, PUBLIC, async (req, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const origin = req.headers.origin;
      if (origin && callbackOrigins().includes(origin))
        reply.header('access-control-allow-origin', origin).header('vary', 'origin');
      const oauthError = (status: number, error: string, description?: string) =>
        reply.code(status).send({ error, ...(description ? { error_description: description } : {}) });
      const body = req.body;
      if (typeof body !== 'object' || body === null)
        return oauthError(400, 'invalid_request', 'form body required');
      // A public client: no secret, and no other client.
      const basic = req.headers.authorization;
      const clientId = field(body, 'client_id', 128);
      if (basic || field(body, 'client_secret') || clientId !== config.idp.clientId)
        return oauthError(401, 'invalid_client');
      const grant = field(body, 'grant_type', 64);
      const ctx = ctxOf(req);
      if (grant === 'authorization_code') {
        const code = field(body, 'code', 256);
        const redirectUri = field(body, 'redirect_uri');
        if (!code || !redirectUri)
          return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
        const grant = await redeemCode(ctx, {
          code,
          clientId,
          redirectUri,
          verifier: field(body, 'code_verifier', 256),
        });
        const user = grant ? await findUserById(ctx.db, grant.userId) : null;
        if (!grant || !user?.enabled) return oauthError(400, 'invalid_grant');
        const { AuthenticationResult: r } = await startSession(ctx, user, {
          scope: grant.scope,
          authTime: grant.authTime,
          nonce: grant.nonce || undefined,
        });
        return reply.send({
          access_token: r.AccessToken,
          id_token: r.IdToken,
          refresh_token: r.RefreshToken,
          token_type: 'Bearer',
          expires_in: r.ExpiresIn,
        });
      }
      if (grant === 'refresh_token') {
        const token = field(body, 'refresh_token', 2048);
        if (!token) return oauthError(400, 'invalid_request', 'refresh_token is required');
        try {
          const { AuthenticationResult: r } = await refreshSession(ctx, token, (id) =>
            findUserById(ctx.db, id),
          );
          return reply.send({
            access_token: r.AccessToken,
            id_token: r.IdToken,
            token_type: 'Bearer',
            expires_in: r.ExpiresIn,
          });
        } catch (error) {
          if (error instanceof IdpError) return oauthError(400, 'invalid_grant');
          throw error;
        }
      }
      if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required');
      return oauthError(400, 'unsupported_grant_type');
    });

    scope.get(`${HOSTED_BASE}/logout`, PUBLIC, async (req, reply) => {
      const clientId = field(req.query, 'client_id', 128);
      const logoutUri = field(req.query, 'logout_uri');
      if (clientId !== config.idp.clientId || !allowedRedirect(config, logoutUri, 'logout'))
        return sendPage(
          reply,
          messagePage('Sign-out request refused', 'The logout_uri is not registered for this app client.'),
          400,
        );
      await endHostedSession(ctxOf(req), req, reply);
      return reply.header('cache-control', 'no-store').redirect(logoutUri, 302);
    });

    scope.get(`${HOSTED_BASE}/oauth2/userInfo`, PUBLIC, async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const header = req.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      try {
        if (!token) throw new IdpError('NotAuthorizedException', 'no token');
        const { user } = await authenticate(ctxOf(req), token);
        const claims = Object.fromEntries(attributesOf(user).map((a) => [a.Name, a.Value]));
        return reply.send({ ...claims, sub: user.id, username: user.username });
      } catch (error) {
        if (!(error instanceof IdpError)) throw error;
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer error="invalid_token"')
          .send({ error: 'invalid_token' });
      }
    });
  });
}
