import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { IdpKeys } from './keys';

export const ACCESS_TOKEN_TTL_S = 3600;

export type TTokenSubject = {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
  authTime: number;
  originJti: string;
  deviceKey?: string;
  /** Further id-token claims: the user's other attributes (given_name, custom:…). */
  idClaims?: Record<string, unknown>;
};

/** Id and access tokens with Cognito's claims (IDP.md §5). */
export async function signTokens(
  keys: IdpKeys,
  opts: { issuer: string; clientId: string; subject: TTokenSubject; now?: number; scope?: string },
) {
  const { kid, privateKey } = await keys.signingKey();
  const iat = opts.now ?? Math.floor(Date.now() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_S;
  const s = opts.subject;
  const eventId = randomUUID();
  const accessToken = await new SignJWT({
    client_id: opts.clientId,
    token_use: 'access',
    scope: opts.scope ?? 'aws.cognito.signin.user.admin',
    username: s.username,
    auth_time: s.authTime,
    origin_jti: s.originJti,
    event_id: eventId,
    ...(s.deviceKey ? { device_key: s.deviceKey } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setSubject(s.sub)
    .setIssuer(opts.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(privateKey);
  const idToken = await new SignJWT({
    ...s.idClaims,
    token_use: 'id',
    'cognito:username': s.username,
    auth_time: s.authTime,
    origin_jti: s.originJti,
    event_id: eventId,
    email: s.email,
    email_verified: s.emailVerified,
  })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setSubject(s.sub)
    .setIssuer(opts.issuer)
    .setAudience(opts.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(privateKey);
  return { accessToken, idToken, expiresIn: ACCESS_TOKEN_TTL_S };
}
