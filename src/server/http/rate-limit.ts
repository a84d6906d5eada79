import { createHash } from 'node:crypto';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PORTAL_SESSION_COOKIE } from '../auth';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import { postgresRateLimitStore } from './rate-limit-store';

// The flood guard on API calls, counted for the whole deployment (rate-limit-store.ts: PostgreSQL,
// or Redis with REDIS_URL; in memory on embedded PGlite, one process). Static files, the HTML shell
// and the web app's config script never count (a cold page load is dozens of requests). A
// signed-in caller is counted as themselves — staff by the access token's `sub`, portal users by
// their session cookie — and only calls where nobody is signed in are counted per address. The
// stricter limits on passwords and sign-in codes are kept by the features that need them.

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

/** A public-API key (features/api) is counted as itself, by a hash of its secret. */
const API_KEY_RE = /^Bearer (pk_live_[\w-]{20,100})$/;

export function rateLimitKey(req: FastifyRequest): string {
  const apiKey = API_KEY_RE.exec(req.headers.authorization ?? '')?.[1];
  if (apiKey) return `apikey:${createHash('sha256').update(apiKey).digest('base64url').slice(0, 32)}`;
  const sub = bearerSubject(req.headers.authorization);
  if (sub) return `staff:${sub}`;
  const session = req.cookies?.[PORTAL_SESSION_COOKIE];
  if (session) return `portal:${createHash('sha256').update(session).digest('base64url').slice(0, 32)}`;
  return `ip:${req.ip}`;
}

export const tooManyRequestsMessage = (seconds: number) => `Too many requests — try again in ${seconds} s`;

/** Where the counts are kept: shared by every instance unless the database is embedded. */
async function storeOptions(
  app: FastifyInstance,
  config: Pick<TConfig, 'redisUrl'>,
  database: Pick<TDatabase, 'db' | 'engine'>,
): Promise<Partial<RateLimitPluginOptions>> {
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    // A call never waits for Redis to come back: with it down, calls go uncounted (skipOnError)
    // rather than fail.
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    let down = false;
    redis.on('error', (error) => {
      if (!down)
        app.log.warn({ err: error }, 'Redis unreachable: API calls are not rate-limited until it is back');
      down = true;
    });
    redis.on('ready', () => {
      if (down) app.log.info('Redis reachable again: API calls are rate-limited');
      down = false;
    });
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    return { redis, nameSpace: 'practice-rate-limit:' };
  }
  if (database.engine !== 'postgres') return {};
  const { Store, stop } = postgresRateLimitStore(database.db);
  app.addHook('onClose', async () => stop());
  return { store: Store as unknown as RateLimitPluginOptions['store'] };
}

/** Registered after @fastify/cookie (the key reads the portal cookie). */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Pick<TConfig, 'rateLimitPerMinute' | 'redisUrl'> & Partial<Pick<TConfig, 'apiKeyRatePerMinute'>>,
  database: Pick<TDatabase, 'db' | 'engine'>,
) {
  await app.register(rateLimit, {
    ...(await storeOptions(app, config, database)),
    // A store that cannot answer (the database or Redis down) lets the call through: the guard
    // must not be the reason the application stops answering.
    skipOnError: true,
    // An API key has its own (usually lower) limit; everyone else the deployment's.
    max: (_req, key) =>
      key.startsWith('apikey:') && config.apiKeyRatePerMinute
        ? config.apiKeyRatePerMinute
        : config.rateLimitPerMinute,
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
