import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PORTAL_SESSION_COOKIE } from '../auth';
import type { TConfig } from '../config';

// The per-instance flood guard on API calls. Static files, the HTML shell and the web app's config
// script never count (a cold page load is dozens of requests). A signed-in caller is counted as
// themselves — staff by the access token's `sub`, portal users by their session cookie — and only
// calls where nobody is signed in are counted per address. Limits that must hold across instances
// (passwords, sign-in codes) are kept in the database by the features that need them.

/** Paths under /api/ that are part of loading the page, not calls. */
const SHELL_PATHS = new Set(['/api/health', '/api/ready', '/api/config.js']);

export function rateLimited(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.startsWith('/api/') && !SHELL_PATHS.has(pathname);
}

/**
 * The bearer token's subject, read without verifying it: only for choosing the bucket (a forged
 * token buckets its forger), so the request's one verification stays where it is.
 */
export function bearerSubject(header: string | undefined): string | undefined {
  const match = /^Bearer ([\w-]+)\.([\w-]+)\.[\w-]*$/.exec(header ?? '');
  if (!match?.[2] || match[2].length > 4096) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(match[2], 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub.length <= 128 ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

export function rateLimitKey(req: FastifyRequest): string {
  const sub = bearerSubject(req.headers.authorization);
  if (sub) return `staff:${sub}`;
  const session = req.cookies?.[PORTAL_SESSION_COOKIE];
  if (session) return `portal:${createHash('sha256').update(session).digest('base64url').slice(0, 32)}`;
  return `ip:${req.ip}`;
}

export const tooManyRequestsMessage = (seconds: number) => `Too many requests — try again in ${seconds} s`;

/** Registered after @fastify/cookie (the key reads the portal cookie). */
export async function registerRateLimit(app: FastifyInstance, config: Pick<TConfig, 'rateLimitPerMinute'>) {
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    allowList: (req) => !rateLimited(req.url),
    keyGenerator: rateLimitKey,
    // Answered as { error: 'TOO_MANY_REQUESTS', message } with Retry-After by the error handler.
    errorResponseBuilder: (_req, context) =>
      Object.assign(new Error(tooManyRequestsMessage(Math.max(1, Math.ceil(context.ttl / 1000)))), {
        statusCode: 429,
      }),
  });
}
