import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/sql';
import { createTestApp, type TTestApp } from '../test/app';
import { LEASE_MAX, leaseSize } from './rate-limit-lease';
import { postgresRateLimitStore } from './rate-limit-store';

// The shared count with leases: every call gets a number of its own in rate_limit_counters, so the
// instances together never let more than the limit through, however the calls fall on them; a busy
// caller costs a statement per lease, not per call; and what one instance holds unused never costs
// the caller the call it makes on another while under the limit.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const WINDOW = 60_000;

/** Instances, each a store of its own on the one database; count(i, key, max, n) makes n calls at once. */
function instances(n: number) {
  const statements = { n: 0 };
  // The database as the stores see it, counting their statements.
  const db = new Proxy(t.db, {
    get: (target, name, receiver) =>
      name === 'execute'
        ? (...args: Parameters<typeof target.execute>) => {
            statements.n += 1;
            return target.execute(...args);
          }
        : Reflect.get(target, name, receiver),
  });
  const stores = Array.from({ length: n }, () => {
    const { Store, stop } = postgresRateLimitStore(db);
    return { store: new Store(), stop };
  });
  const count = (i: number, key: string, max: number, calls: number) =>
    Promise.all(
      Array.from(
        { length: calls },
        () =>
          new Promise<number>((resolve, reject) =>
            stores[i]?.store.incr(
              key,
              (error, result) => (error || !result ? reject(error) : resolve(result.current)),
              WINDOW,
              max,
            ),
          ),
      ),
    );
  return {
    count,
    statements,
    stop: () => {
      for (const s of stores) s.stop();
    },
  };
}

describe('leases of the shared rate-limit count', () => {
  it('sizes a lease exactly at first, then doubling within a quarter of what is left', () => {
    const now = 1_000;
    expect(leaseSize(undefined, 3, 600, now)).toBe(3);
    const lease = { next: 2, last: 1, size: 1, windowEndsAt: now + WINDOW };
    expect(leaseSize(lease, 1, 600, now)).toBe(2);
    expect(leaseSize({ ...lease, size: 64 }, 1, 600, now)).toBe(LEASE_MAX);
    expect(leaseSize({ ...lease, last: 590, size: 16 }, 1, 600, now)).toBe(2);
    expect(leaseSize({ ...lease, last: 598, size: 16 }, 1, 600, now)).toBe(1);
    expect(leaseSize({ ...lease, last: 598, size: 16 }, 5, 600, now)).toBe(5);
    // A window that has ended starts exact again.
    expect(leaseSize({ ...lease, size: 16, windowEndsAt: now }, 1, 600, now)).toBe(1);
  });

  it('never lets more than the limit through, however the calls fall on the instances', async () => {
    const { count, stop } = instances(3);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 40 }),
          fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 6 })), {
            minLength: 1,
            maxLength: 25,
          }),
          async (max, bursts) => {
            const key = `test:${randomUUID()}`;
            const numbers: number[] = [];
            let calls = 0;
            for (const [instance, n] of bursts) {
              // Lone turns and bursts across instances at once, as a load balancer spreads them.
              const [here, there] = await Promise.all([
                count(instance, key, max, n),
                count((instance + 1) % 3, key, max, 1),
              ]);
              numbers.push(...(here ?? []), ...(there ?? []));
              calls += n + 1;
            }
            const passed = numbers.filter((c) => c <= max);
            expect(passed.length).toBeLessThanOrEqual(max);
            // Numbers under the limit are never handed out twice.
            expect(new Set(passed).size).toBe(passed.length);
            if (calls <= max) expect(passed.length).toBeGreaterThan(0);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      stop();
    }
  });

  it('on one instance lets exactly the limit through, a statement per lease', async () => {
    const { count, statements, stop } = instances(1);
    try {
      const key = `test:${randomUUID()}`;
      const numbers: number[] = [];
      for (let i = 0; i < 700; i++) numbers.push(...(await count(0, key, 600, 1)));
      expect(numbers.filter((c) => c <= 600)).toHaveLength(600);
      expect(numbers.slice(0, 600)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      // The shared count: one number per call up to the limit, none for the calls refused after.
      const [row] = rowsOf<{ count: number }>(
        await t.db.execute(sql`select count from rate_limit_counters where key = ${key}`),
      );
      expect(Number(row?.count)).toBe(600);
      // 1, 2, 4 … 32 a lease, smaller again near the limit: about 30 statements for 700 calls.
      expect(statements.n).toBeGreaterThan(10);
      expect(statements.n).toBeLessThan(45);
    } finally {
      stop();
    }
  });

  it('a caller who moves to another instance under the limit is not refused there', async () => {
    const { count, stop } = instances(2);
    try {
      for (const before of [1, 5, 50, 200, 450, 598, 599]) {
        const key = `test:${randomUUID()}`;
        for (let i = 0; i < before; i++) await count(0, key, 600, 1);
        const [there] = await count(1, key, 600, 1);
        expect(there, `after ${before} calls on the first`).toBeLessThanOrEqual(600);
      }
    } finally {
      stop();
    }
  });
});
