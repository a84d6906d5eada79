import { timingSafeEqual } from 'node:crypto';
import { SIGNED_LINK_PARAM, SIGNED_LINK_TTL_MS, type TLinkPurpose } from '../../domain/signed-links';

/** What a link is bound to: the firm, the member and their sign-in, one purpose, one resource. */
export type TLinkClaims = {
  /** org id */
  o: string;
  /** member id */
  m: string;
  /** the identity's sub and sign-in (origin_jti): signing out everywhere ends the link too */
  s: string;
  j: string;
  p: TLinkPurpose;
  /** the exact path and query the link opens */
  r: string;
  /** expiry, ms since the epoch */
  e: number;
};

/** The server's keyed hash (HMAC-SHA256 under a key of its own, sealed by the vault's master key). */
export type TLinkMac = (data: string) => Promise<string>;

const DOMAIN = 'signed-link\u0000';
const MAX_TOKEN = 2000;

/**
 * A path with its query in one canonical form: the query re-serialised without the link itself, so
 * the same route and filter sign and verify to the same text whichever way they were written.
 */
export function canonicalResource(url: string): string | null {
  if (!URL.canParse(url, 'http://x')) return null;
  const parsed = new URL(url, 'http://x');
  if (parsed.origin !== 'http://x') return null;
  parsed.searchParams.delete(SIGNED_LINK_PARAM);
  const query = parsed.searchParams.toString();
  return `${parsed.pathname}${query ? `?${query}` : ''}`;
}

export async function signLink(
  mac: TLinkMac,
  claims: Omit<TLinkClaims, 'e'>,
  now = Date.now(),
): Promise<{ url: string; expiresAt: Date }> {
  const full: TLinkClaims = { ...claims, e: now + SIGNED_LINK_TTL_MS };
  const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
  const token = `${payload}.${await mac(DOMAIN + payload)}`;
  const joiner = claims.r.includes('?') ? '&' : '?';
  return {
    url: `${claims.r}${joiner}${SIGNED_LINK_PARAM}=${encodeURIComponent(token)}`,
    expiresAt: new Date(full.e),
  };
}

/**
 * The claims of a genuine, unexpired link issued for this purpose and this very resource, or null
 * (a link of another purpose, for another object, tampered with or expired opens nothing).
 */
export async function verifyLink(
  mac: TLinkMac,
  token: string,
  expect: { purpose: TLinkPurpose; resource: string },
  now = Date.now(),
): Promise<TLinkClaims | null> {
  if (token.length > MAX_TOKEN) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(await mac(DOMAIN + payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: TLinkClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TLinkClaims;
  } catch {
    return null;
  }
  if (typeof claims?.e !== 'number' || claims.e <= now) return null;
  if (claims.p !== expect.purpose || claims.r !== expect.resource) return null;
  return claims;
}
