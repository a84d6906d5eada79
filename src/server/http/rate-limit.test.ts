import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_SESSION_COOKIE } from '../auth';
import { openPostgres } from '../db/client';
import { clients } from '../db/schema';
import { createTestApp, type TTestApp } from '../test/app';
import { seedPortalUser } from '../test/portal';
import { bearerSubject, rateLimited } from './rate-limit';

// The flood guard: API calls only, per signed-in caller, a readable 429; counted for the whole
// deployment on PostgreSQL (or Redis), so instances do not multiply it.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
});
afterAll(() => t?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers });

describe('the rate limit', () => {
  it('counts API calls only: never the page, its files or the config script', async () => {
    expect(rateLimited('/api/trpc/profile.me?batch=1')).toBe(true);
    expect(rateLimited('/api/idp')).toBe(true);
    for (const path of [
      '/',
      '/auth/login',
      '/assets/index-abc.js',
      '/favicon.ico',
      '/api/config.js',
      '/api/health',
    ])
      expect(rateLimited(path)).toBe(false);
    for (let i = 0; i < 8; i++) {
      for (const path of ['/api/config.js', '/api/health', '/auth/login', '/assets/missing.js'])
        expect((await get(path)).status).not.toBe(429);
    }
  });

  it('reads the bearer subject without verifying, and nothing from a malformed header', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'abc-123' })).toString('base64url');
    expect(bearerSubject(`Bearer e30.${payload}.sig`)).toBe('abc-123');
    expect(bearerSubject('Bearer nonsense')).toBeUndefined();
    expect(bearerSubject(`Basic e30.${payload}.sig`)).toBeUndefined();
    expect(bearerSubject(undefined)).toBeUndefined();
  });

  it('limits each signed-in member on their own, and answers 429 with Retry-After and a readable body', async () => {
    const a = await t.seedFirm('Rate A');
    const b = await t.seedFirm('Rate B');
    const asA = { authorization: `Bearer ${a.owner.token}` };
    for (let i = 0; i < 3; i++) expect((await get('/api/trpc/profile.me', asA)).status).toBe(200);
    const refused = await get('/api/trpc/profile.me', asA);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      error: 'TOO_MANY_REQUESTS',
      message: `Too many requests — try again in ${wait} s`,
    });
    // Another member from the same address, and nobody signed in, have buckets of their own.
    expect((await get('/api/trpc/profile.me', { authorization: `Bearer ${b.owner.token}` })).status).toBe(
      200,
    );
    expect((await get('/api/trpc/profile.me')).status).toBe(401);
  });

  it('limits a portal session on its own, and callers with nobody signed in by address', async () => {
    const f = await t.seedFirm('Rate Portal');
    const [client] = await t.db.insert(clients).values({ orgId: f.org.id, code: 'R', name: 'R' }).returning();
    const portal = await seedPortalUser(t, { orgId: f.org.id, clientIds: [client?.id ?? ''] });
    const cookie = { cookie: `${PORTAL_SESSION_COOKIE}=${portal.token}` };
    for (let i = 0; i < 3; i++)
      expect((await get('/api/trpc/clientPortalProfile.me', cookie)).status).toBe(200);
    expect((await get('/api/trpc/clientPortalProfile.me', cookie)).status).toBe(429);
    // The anonymous bucket of this address was used up by the test above (one call) and this one.
    const anonymous = [];
    for (let i = 0; i < 3; i++) anonymous.push((await get('/api/trpc/clientPortalProfile.me')).status);
    expect(anonymous).toContain(429);
  });
});

/**
 * Calls from one caller spread over several instances. The token is unsigned: the bucket is chosen
 * from its subject before anyone verifies it, so each call counts (and answers 401) until the limit.
 */
async function spread(urls: string[], calls: number) {
  const authorization = `Bearer e30.${Buffer.from(JSON.stringify({ sub: randomUUID() })).toString('base64url')}.x`;
  const statuses: number[] = [];
  for (let i = 0; i < calls; i++) {
    statuses.push(
      (await fetch(`${urls[i % urls.length]}/api/trpc/profile.me`, { headers: { authorization } })).status,
    );
  }
  return statuses;
}

describe('the rate limit across instances', () => {
  it.runIf(process.env.DATABASE_URL)(
    'holds for the deployment on PostgreSQL: two instances, one count',
    async () => {
      const other = await createTestApp(
        { RATE_LIMIT_PER_MINUTE: '3' },
        { database: await openPostgres(t.database.url ?? '', { max: 2 }) },
      );
      try {
        expect(await spread([t.url, other.url], 5)).toEqual([401, 401, 401, 429, 429]);
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    'counts calls arriving together one by one on PostgreSQL: of seven at once, three pass',
    async () => {
      const other = await createTestApp(
        { RATE_LIMIT_PER_MINUTE: '3' },
        { database: await openPostgres(t.database.url ?? '', { max: 2 }) },
      );
      try {
        const authorization = `Bearer e30.${Buffer.from(JSON.stringify({ sub: randomUUID() })).toString('base64url')}.x`;
        // Both instances at once, several calls each: they are counted in batches per instance.
        const statuses = await Promise.all(
          [t.url, other.url, t.url, other.url, t.url, other.url, t.url].map(
            async (url) => (await fetch(`${url}/api/trpc/profile.me`, { headers: { authorization } })).status,
          ),
        );
        expect(statuses.filter((s) => s === 401)).toHaveLength(3);
        expect(statuses.filter((s) => s === 429)).toHaveLength(4);
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(process.env.REDIS_URL)('holds for the deployment in Redis (REDIS_URL)', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: process.env.REDIS_URL ?? '' };
    const one = await createTestApp(env);
    const two = await createTestApp(env);
    try {
      expect(await spread([one.url, two.url], 5)).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
