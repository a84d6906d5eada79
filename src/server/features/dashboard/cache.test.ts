import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { DashboardCache, DOWN_TTL_MS, watchDashboardChanges } from './cache';

// The cache's rule while its LISTEN connection is down: nothing tells it of changes, so a summary is
// kept for seconds only, and everything kept is dropped when the connection goes and comes back.

afterEach(() => {
  vi.useRealTimers();
});

describe('the dashboard cache', () => {
  it('keeps a summary until the firm changes while it listens', () => {
    const cache = new DashboardCache<string>();
    cache.setListening(true);
    cache.put('k', cache.ticket('org'), 'v1');
    expect(cache.get('k', 'org')).toBe('v1');
    cache.changed('org');
    expect(cache.get('k', 'org')).toBeUndefined();
  });

  it('keeps a summary for DOWN_TTL_MS only while LISTEN is down, and forgets it at each change of state', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new DashboardCache<string>();
    cache.setListening(true);
    cache.put('k', cache.ticket('org'), 'listening');
    cache.setListening(false);
    // Kept while listening, perhaps missing what changed since: gone.
    expect(cache.get('k', 'org')).toBeUndefined();
    cache.put('k', cache.ticket('org'), 'down');
    vi.advanceTimersByTime(DOWN_TTL_MS - 1);
    expect(cache.get('k', 'org')).toBe('down');
    vi.advanceTimersByTime(1);
    expect(cache.get('k', 'org')).toBeUndefined();
    // A summary begun while down and put after the connection is back is not kept (it may be stale).
    const ticket = cache.ticket('org');
    cache.setListening(true);
    cache.put('k', ticket, 'begun while down');
    expect(cache.get('k', 'org')).toBeUndefined();
    cache.put('k', cache.ticket('org'), 'back');
    vi.advanceTimersByTime(DOWN_TTL_MS * 10);
    expect(cache.get('k', 'org')).toBe('back');
  });
});

describe('the LISTEN connection', () => {
  it.runIf(process.env.DATABASE_URL)('logs its loss and its recovery', async () => {
    const database = await createTestDatabase();
    const log = { warn: vi.fn(), info: vi.fn() };
    const stop = await watchDashboardChanges(database, log);
    try {
      await database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`);
      await vi.waitFor(
        () =>
          expect(log.warn).toHaveBeenCalledWith(
            expect.objectContaining({ cacheSeconds: 5 }),
            expect.stringMatching(/LISTEN connection lost/),
          ),
        { timeout: 5_000, interval: 20 },
      );
      await vi.waitFor(
        () => expect(log.info).toHaveBeenCalledWith(expect.anything(), 'LISTEN connection back'),
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await stop();
      await database.close();
    }
  });
});
