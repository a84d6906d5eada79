import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { TIdpContext } from './deps';
import { E } from './errors';
import { isRevoked } from './sessions';
import { findUserById, type TIdpUser } from './users';

export type TAccess = { user: TIdpUser; originJti: string; deviceKey?: string };

/**
 * Checks the AccessToken of a self-service call: signature, issuer, client, token use and expiry,
 * then that its sign-in was not revoked and the user still exists and is enabled.
 */
export async function authenticate(ctx: TIdpContext, token: string): Promise<TAccess> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(
      token,
      async (header) => {
        const key = await ctx.keys.verifyKey(header.kid);
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        return key;
      },
      { issuer: ctx.issuer, algorithms: ['RS256'] },
    ));
    validateCognitoJwtFields(payload as never, { tokenUse: 'access', clientId: ctx.config.idp.clientId });
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw E.accessExpired();
    throw E.accessInvalid();
  }
  const sub = payload.sub;
  const originJti = payload.origin_jti;
  if (typeof sub !== 'string' || typeof originJti !== 'string') throw E.accessInvalid();
  if (await isRevoked(ctx.db, originJti)) throw E.accessRevoked();
  const user = await findUserById(ctx.db, sub);
  if (!user) throw E.userNotFound();
  if (!user.enabled) throw E.userDisabled();
  const deviceKey = typeof payload.device_key === 'string' ? payload.device_key : undefined;
  return { user, originJti, deviceKey };
}
