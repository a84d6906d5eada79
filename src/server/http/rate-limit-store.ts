import { sql } from 'drizzle-orm';
import { callBatching } from '../db/batching';
import type { TDb } from '../db/client';
import { rowsOf } from '../db/sql';
import { hasUnused, leaseSize, spent, type TLease, takeSlot } from './rate-limit-lease';

// Where the per-call rate limit counts. Instances behind one load balancer must share the count,
// or N instances allow N times the limit: on PostgreSQL in rate_limit_counters (a fixed window as
// @fastify/rate-limit's own stores keep), or in Redis when REDIS_URL is set (@fastify/rate-limit's
// Redis store, one script call). Embedded PGlite is one process: its count stays in memory.
//
// On PostgreSQL an instance reserves a caller's calls from the shared count a few at a time (a
// lease, rate-limit-lease.ts) and counts the reserved ones in memory: a busy caller costs one
// statement per lease instead of one per call (the largest part of the framework's tax,
// bench/README.md, issue 42). Every call still has a number of its own in the shared count, so the
// deployment never lets more than the limit through; what a lease can cost is a call refused a
// little early when the caller moves to another instance while this one holds unused numbers, at
// most a third of what was left (the lease never exceeds a quarter of the remainder it saw).

type TCounter = { current: number; ttl: number };
type TCallback = (error: Error | null, result: TCounter | null) => void;

/** Expired counters are deleted this often (by each instance; the delete is cheap and idempotent). */
const PRUNE_MS = 60_000;

/** A store class for @fastify/rate-limit's `store` option, counting in `db`'s rate_limit_counters. */
export function postgresRateLimitStore(db: TDb) {
  let timer: NodeJS.Timeout | undefined;
  /** Each caller's reserved numbers in the current window, by key. */
  const leases = new Map<string, TLease>();
  const prune = () => {
    const now = Date.now();
    for (const [key, lease] of leases) if (lease.windowEndsAt <= now) leases.delete(key);
    db.execute(sql`delete from rate_limit_counters where window_ends_at < now()`).catch(() => {});
  };
  /**
   * Calls that found no reserved number wait for the next statement, which reserves for every key
   * of the event-loop turn at once (rows locked in key order, so two instances' statements never
   * wait on each other in a cycle). A lone call waits one turn for it.
   */
  let pending: Map<string, { window: number; max: number; callbacks: TCallback[] }> | null = null;
  const flush = () => {
    const batch = pending;
    pending = null;
    if (!batch) return;
    const now = Date.now();
    const counts = [...batch]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => ({
        key,
        entry,
        // Without batching (bench/run.ts --compare batching) every call is counted by a statement.
        n: callBatching.on
          ? leaseSize(leases.get(key), entry.callbacks.length, entry.max, now)
          : entry.callbacks.length,
      }));
    const rows = counts.map(({ key, n, entry }) => ({ key, n, w: `${entry.window} milliseconds` }));
    const fail = (error: Error) => {
      for (const { callbacks } of batch.values()) for (const callback of callbacks) callback(error, null);
    };
    db.execute(sql`
      insert into rate_limit_counters as c (key, count, window_ends_at)
      select k.key, k.n, now() + k.w::interval
      from json_to_recordset(${JSON.stringify(rows)}::json) as k(key text, n int, w text)
      on conflict (key) do update set
        count = case when c.window_ends_at <= now() then excluded.count else c.count + excluded.count end,
        window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
      returning key, count, ceil(extract(epoch from c.window_ends_at - now()) * 1000)::int as ttl`)
      .then((result) => {
        const counted = new Map(
          rowsOf<{ key: string; count: number; ttl: number }>(result).map((r) => [r.key, r]),
        );
        const at = Date.now();
        for (const { key, n, entry } of counts) {
          const { window, callbacks } = entry;
          const row = counted.get(key);
          const last = Number(row?.count ?? n);
          const ttl = Math.max(0, Number(row?.ttl ?? window));
          // The numbers last-n+1 … last are this instance's, in the order its calls came.
          const lease: TLease = { next: last - n + 1, last, size: n, windowEndsAt: at + ttl };
          leases.set(key, lease);
          for (const callback of callbacks) callback(null, { current: takeSlot(lease), ttl });
        }
      })
      .catch(fail);
  };
  class PostgresStore {
    constructor() {
      timer ??= setInterval(prune, PRUNE_MS).unref();
    }

    incr(key: string, callback: TCallback, timeWindow: number, max: number) {
      const lease = leases.get(key);
      const now = Date.now();
      if (callBatching.on && hasUnused(lease, now) && !pending?.has(key)) {
        callback(null, { current: takeSlot(lease), ttl: lease.windowEndsAt - now });
        return;
      }
      if (spent(lease, max, now)) {
        // Refused without a statement: nothing can bring the count back under the limit before the
        // window ends, so a flood past the limit costs the database nothing.
        callback(null, { current: max + 1, ttl: lease.windowEndsAt - now });
        return;
      }
      if (!pending) {
        pending = new Map();
        if (callBatching.on) setImmediate(flush);
        else queueMicrotask(flush);
      }
      const entry = pending.get(key);
      if (entry) entry.callbacks.push(callback);
      else pending.set(key, { window: timeWindow, max, callbacks: [callback] });
    }

    child() {
      return this;
    }
  }
  return {
    Store: PostgresStore,
    stop() {
      clearInterval(timer);
    },
  };
}
