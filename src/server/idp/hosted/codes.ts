import { createHash } from 'node:crypto';
import { createChallenge, takeChallenge } from '../challenges';
import type { TIdpContext } from '../deps';
import type { TAuthorizeRequest } from './request';

// Authorization codes: a challenge row (five minutes, deleted when redeemed, so each code is used
// once, right or wrong) bound to the client, the redirect_uri and the PKCE challenge.

export async function issueCode(
  ctx: TIdpContext,
  opts: { userId: string; request: TAuthorizeRequest; authTime: number },
): Promise<string> {
  const token = await createChallenge(ctx.db, {
    userId: opts.userId,
    kind: 'oauth_code',
    data: {
      clientId: opts.request.clientId,
      redirectUri: opts.request.redirectUri,
      codeChallenge: opts.request.codeChallenge,
      scope: opts.request.scope,
      nonce: opts.request.nonce,
      authTime: String(opts.authTime),
    },
  });
  return Buffer.from(token, 'base64').toString('base64url');
}

/** RFC 7636 S256: base64url(SHA-256(verifier)), the verifier 43–128 unreserved characters. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

export type TRedeemed = { userId: string; scope: string; nonce: string; authTime: number };

/** The code's grant, or null (unknown, used, expired, or not this client's, URI's or verifier's). */
export async function redeemCode(
  ctx: TIdpContext,
  opts: { code: string; clientId: string; redirectUri: string; verifier: string },
): Promise<TRedeemed | null> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(opts.code)) return null;
  const row = await takeChallenge(ctx.db, opts.code, 'oauth_code');
  if (!row?.userId) return null;
  const d = row.data;
  if (d.clientId !== opts.clientId || d.redirectUri !== opts.redirectUri) return null;
  if (!pkceMatches(opts.verifier, d.codeChallenge ?? '')) return null;
  return { userId: row.userId, scope: d.scope ?? '', nonce: d.nonce ?? '', authTime: Number(d.authTime) };
}
