import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TBody, TIdpContext, TIdpDeps, TOperation } from './deps';
import { errorResponse, IdpError } from './errors';
import { HOSTED_SCOPES } from './hosted/request';
import { registerHostedSignIn } from './hosted/routes';
import {
  ChangePassword,
  ConfirmForgotPassword,
  DeleteUser,
  DeleteUserAttributes,
  ForgotPassword,
  GetUser,
  GetUserAttributeVerificationCode,
  GlobalSignOut,
  RevokeToken,
  UpdateUserAttributes,
  VerifyUserAttribute,
} from './operations/account';
import { GetTokensFromRefreshToken, InitiateAuth, RespondToAuthChallenge } from './operations/auth';
import {
  ConfirmDevice,
  ForgetDevice,
  GetDevice,
  ListDevices,
  UpdateDeviceStatus,
} from './operations/devices';
import {
  AssociateSoftwareToken,
  SetUserMFAPreference,
  SetUserSettings,
  VerifySoftwareToken,
} from './operations/mfa';
import { ConfirmSignUp, ResendConfirmationCode, SignUp } from './operations/signup';
import { idpIssuer } from './staff-auth';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
export const AMZ_JSON = 'application/x-amz-json-1.1';

export const OPERATIONS: Record<string, TOperation> = {
  SignUp,
  ConfirmSignUp,
  ResendConfirmationCode,
  InitiateAuth,
  RespondToAuthChallenge,
  GetTokensFromRefreshToken,
  GetUser,
  UpdateUserAttributes,
  DeleteUserAttributes,
  GetUserAttributeVerificationCode,
  VerifyUserAttribute,
  ChangePassword,
  ForgotPassword,
  ConfirmForgotPassword,
  GlobalSignOut,
  RevokeToken,
  DeleteUser,
  ConfirmDevice,
  GetDevice,
  ListDevices,
  UpdateDeviceStatus,
  ForgetDevice,
  AssociateSoftwareToken,
  VerifySoftwareToken,
  SetUserMFAPreference,
  SetUserSettings,
};

function sendError(reply: FastifyReply, error: unknown) {
  const { status, type, body } = errorResponse(error);
  if (status >= 500) reply.log.error({ err: error }, 'identity provider operation failed');
  return reply
    .code(status)
    .header('content-type', AMZ_JSON)
    .header('x-amzn-errortype', `${type}:`)
    .send(body);
}

/**
 * The embedded identity provider: POST /api/idp (the Cognito user-pool JSON protocol, operation in
 * X-Amz-Target), and the issuer's JWKS and discovery document.
 */
export async function registerIdp(app: FastifyInstance, deps: TIdpDeps) {
  const issuer = idpIssuer(deps.config);
  const poolId = deps.config.idp.userPoolId;
  const [region = '', poolName = ''] = poolId.split('_');
  const base = { ...deps, issuer, poolName, region };
  // Hosted sign-in lives beside the JSON protocol: `<public URL>/api/idp/oauth2/…`.
  const hostedBase = `${deps.config.publicUrl}/api/idp`;
  registerHostedSignIn(app, base);

  await app.register(async (scope) => {
    // Only this scope parses Amazon's JSON type; the body stays a string until the handler parses it.
    scope.addContentTypeParser(AMZ_JSON, { parseAs: 'string' }, (_req, body, done) => done(null, body));

    // Framework refusals (body too large, bad media type, the per-instance rate limit) in Cognito's shape.
    scope.setErrorHandler((error: { statusCode?: number }, _req, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 429) return sendError(reply, new IdpError('TooManyRequestsException', 'Rate exceeded'));
      if (status === 413)
        return sendError(reply, new IdpError('InvalidParameterException', 'Request body is too large.'));
      if (status >= 400 && status < 500) {
        return sendError(reply, new IdpError('SerializationException', 'The request could not be read.'));
      }
      return sendError(reply, error);
    });

    // The AWS SDK posts to the endpoint's path with a trailing slash; Amplify posts to it as given.
    scope.post('/api/idp', handle);
    scope.post('/api/idp/', handle);

    async function handle(req: FastifyRequest, reply: FastifyReply) {
      reply.header('cache-control', 'no-store');
      const target = req.headers['x-amz-target'];
      const name =
        typeof target === 'string' && target.startsWith(TARGET_PREFIX)
          ? target.slice(TARGET_PREFIX.length)
          : '';
      const operation = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
      if (!operation)
        return sendError(
          reply,
          new IdpError('UnknownOperationException', `Unknown operation ${name || String(target ?? '')}`),
        );
      let body: TBody;
      try {
        const parsed: unknown = typeof req.body === 'string' ? JSON.parse(req.body || '{}') : req.body;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new Error('not an object');
        body = parsed as TBody;
      } catch {
        return sendError(
          reply,
          new IdpError('SerializationException', 'Start of structure or map found where not expected.'),
        );
      }
      const ctx: TIdpContext = {
        ...base,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
      };
      try {
        const result = await operation(ctx, body);
        return reply.code(200).header('content-type', AMZ_JSON).send(JSON.stringify(result));
      } catch (error) {
        return sendError(reply, error);
      }
    }

    scope.get(`/api/idp/${poolId}/.well-known/jwks.json`, async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(await deps.keys.jwks()),
    );

    scope.get(`/api/idp/${poolId}/.well-known/openid-configuration`, async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        authorization_endpoint: `${hostedBase}/oauth2/authorize`,
        token_endpoint: `${hostedBase}/oauth2/token`,
        end_session_endpoint: `${hostedBase}/logout`,
        userinfo_endpoint: `${hostedBase}/oauth2/userInfo`,
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: HOSTED_SCOPES,
        claims_supported: [
          'sub',
          'iss',
          'aud',
          'email',
          'email_verified',
          'cognito:username',
          'auth_time',
          'iat',
          'exp',
        ],
      }),
    );
  });
}
