import { sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { rowsOf } from '../db/sql';

// Where the per-call rate limit counts. Instances behind one load balancer must share the count,
// or N instances allow N times the limit: on PostgreSQL each call counts in one statement (an
// upsert on the caller's row, a fixed window as @fastify/rate-limit's own stores keep), or in Redis
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
  class PostgresStore {
    constructor() {
      timer ??= setInterval(prune, PRUNE_MS).unref();
    }

    incr(key: string, callback: TCallback, timeWindow: number) {
      const window = `${timeWindow} milliseconds`;
      db.execute(sql`
        insert into rate_limit_counters as c (key, count, window_ends_at)
        values (${key}, 1, now() + ${window}::interval)
        on conflict (key) do update set
          count = case when c.window_ends_at <= now() then 1 else c.count + 1 end,
          window_ends_at = case when c.window_ends_at <= now() then now() + ${window}::interval else c.window_ends_at end
        returning count, ceil(extract(epoch from c.window_ends_at - now()) * 1000)::int as ttl`)
        .then((result) => {
          const [row] = rowsOf<{ count: number; ttl: number }>(result);
          callback(null, {
            current: Number(row?.count ?? 1),
            ttl: Math.max(0, Number(row?.ttl ?? timeWindow)),
          });
        })
        .catch((error: Error) => callback(error, null));
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
