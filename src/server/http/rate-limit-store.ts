import { sql } from 'drizzle-orm';
import { callBatching } from '../db/batching';
import type { TDb } from '../db/client';
import { rowsOf } from '../db/sql';

// Where the per-call rate limit counts. Instances behind one load balancer must share the count,
// or N instances allow N times the limit: on PostgreSQL the calls of one event-loop turn count in
// one statement (an upsert on each caller's row, a fixed window as @fastify/rate-limit's own stores
// keep), or in Redis
// when REDIS_URL is set (@fastify/rate-limit's Redis store, one script call). Embedded PGlite is one
// process: its count stays in memory. Cost per call: bench/README.md.

type TCounter = { current: number; ttl: number };
type TCallback = (error: Error | null, result: TCounter | null) => void;

/** Expired counters are deleted this often (by each instance; the delete is cheap and idempotent). */
const PRUNE_MS = 60_000;

/** A store class for @fastify/rate-limit's `store` option, counting in `db`'s rate_limit_counters. */
export function postgresRateLimitStore(db: TDb) {
  let timer: NodeJS.Timeout | undefined;
  const prune = () =>
    db.execute(sql`delete from rate_limit_counters where window_ends_at < now()`).catch(() => {});
  /**
   * Calls counted in the same turn of the event loop go to the database as one statement: each key
   * once, with how many calls it had, and each call gets the count it would have had one at a time
   * (the key's new count less the calls after it). Under load that is one round trip for several
   * calls instead of one each; a lone call waits one turn for it (bench/README.md, issue 42).
   */
  let pending: Map<string, { window: number; callbacks: TCallback[] }> | null = null;
  const flush = () => {
    const batch = pending;
    pending = null;
    if (!batch) return;
    // Rows are locked in key order, so two instances' batches never wait on each other in a cycle.
    const rows = [...batch.keys()].sort().map((key) => ({
      key,
      n: batch.get(key)?.callbacks.length ?? 0,
      w: `${batch.get(key)?.window ?? 0} milliseconds`,
    }));
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
        for (const [key, { window, callbacks }] of batch) {
          const row = counted.get(key);
          const last = Number(row?.count ?? callbacks.length);
          const ttl = Math.max(0, Number(row?.ttl ?? window));
          callbacks.forEach((callback, i) => {
            callback(null, { current: last - (callbacks.length - 1 - i), ttl });
          });
        }
      })
      .catch(fail);
  };
  class PostgresStore {
    constructor() {
      timer ??= setInterval(prune, PRUNE_MS).unref();
    }

    incr(key: string, callback: TCallback, timeWindow: number) {
      if (!pending) {
        pending = new Map();
        if (callBatching.on) setImmediate(flush);
        else queueMicrotask(flush);
      }
      const entry = pending.get(key);
      if (entry) entry.callbacks.push(callback);
      else pending.set(key, { window: timeWindow, callbacks: [callback] });
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
