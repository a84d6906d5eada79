import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// The Standard Webhooks convention (standardwebhooks.com): a `whsec_` secret of random bytes in
// base64; each request carries webhook-id, webhook-timestamp (Unix seconds) and webhook-signature
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the secret's bytes>`.

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

export function signWebhook(secret: string, messageId: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/** A receiver's check (the README shows it): any v1 signature in the header matching, within 5 minutes. */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  now = Date.now(),
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > 300) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body).slice(3), 'base64');
  return headers.signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Where a firm's webhook may not reach: this machine, its private networks, link-local, multicast. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** How a host name becomes addresses: the system's resolver, or a test's. */
export type TResolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
export const systemResolver: TResolver = (host) => lookup(host, { all: true });

/** A target checked once: the URL, and the one address a delivery connects to. */
export type TPinnedTarget = { url: URL; address: string; family: 4 | 6 };

/**
 * Checks a target and resolves its host once: an http(s) URL without credentials whose host
 * resolves only to public addresses (any address, when the operator allows private ones). The
 * answer pins the first address: the delivery connects to exactly it, so a DNS answer that changes
 * between the check and the connection (DNS rebinding) cannot move it onto a private address.
 */
export async function pinTarget(
  url: string,
  allowPrivate: boolean,
  resolve: TResolver = systemResolver,
): Promise<{ target: TPinnedTarget } | { refusal: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: 'The URL is not valid' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { refusal: 'Use an http:// or https:// URL' };
  if (parsed.username || parsed.password) return { refusal: 'Put no user name or password in the URL' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolve(host)).map((a) => a.address);
  } catch {
    return { refusal: `The host ${host} could not be found` };
  }
  const first = addresses[0];
  if (!first) return { refusal: `The host ${host} could not be found` };
  if (!allowPrivate && addresses.some(isPrivateAddress))
    return { refusal: 'The URL points at a private or local address, which webhooks may not reach' };
  return { target: { url: parsed, address: first, family: isIP(first) === 6 ? 6 : 4 } };
}

/** Why a target may not be called, or null when it may (checked when a subscription is saved). */
export async function targetRefusal(
  url: string,
  allowPrivate: boolean,
  resolve: TResolver = systemResolver,
): Promise<string | null> {
  // Allowed to reach private addresses, the name need not resolve yet: each delivery resolves it.
  const pinned = await pinTarget(
    url,
    allowPrivate,
    allowPrivate ? async () => [{ address: '0.0.0.0', family: 4 }] : resolve,
  );
  return 'refusal' in pinned ? pinned.refusal : null;
}
