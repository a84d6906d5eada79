import type { TDatabase, TDb, TExecutor } from '../../db/client';

// Members open the home page many times a day and most of those times nothing it shows has changed.
// A summary is kept per member (and rights, and firm day) until the firm changes anything it shows:
// migration 0030's statement triggers NOTIFY 'dashboard_changed' with the firm's id at commit, and
// every server instance LISTENs. A summary computed while a change commits is not kept (the firm's
// generation moved under it), so the only moment a stale summary can be served is between a commit
// and its notification reaching this process (milliseconds). While the LISTEN connection is down
// (PostgreSQL restarted, a network cut) no notification arrives, so a summary is kept only for
// DOWN_TTL_MS: members see a change at most that late, and the home page does not recompute on
// every visit meanwhile. Losing and regaining the connection drops everything kept before.

export const DASHBOARD_CHANNEL = 'dashboard_changed';
/** Summaries kept at most (the oldest go first); a firm of 200 members uses 200. */
const MAX_ENTRIES = 5_000;
/** How long a summary is kept while nothing tells this process of changes. */
export const DOWN_TTL_MS = 5_000;

type TEntry<T> = { generation: number; value: T; expiresAt: number | null };

export class DashboardCache<T> {
  private readonly entries = new Map<string, TEntry<T>>();
  private readonly generations = new Map<string, number>();
  private listening = false;
  /** Each LISTEN connection is a session: a summary begun in an earlier one may have missed changes. */
  private session = 0;

  setListening(on: boolean) {
    this.listening = on;
    this.session++;
    this.entries.clear();
  }

  changed(orgId: string) {
    this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
  }

  get(key: string, orgId: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (
      entry.generation !== (this.generations.get(orgId) ?? 0) ||
      (entry.expiresAt !== null && entry.expiresAt <= Date.now())
    ) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before the summary's statements run; `put` keeps the summary only if nothing changed since. */
  ticket(orgId: string) {
    return { orgId, generation: this.generations.get(orgId) ?? 0, session: this.session };
  }

  put(key: string, ticket: ReturnType<DashboardCache<T>['ticket']>, value: T) {
    if (ticket.session !== this.session) return;
    if ((this.generations.get(ticket.orgId) ?? 0) !== ticket.generation) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(key);
    const expiresAt = this.listening ? null : Date.now() + DOWN_TTL_MS;
    this.entries.set(key, { generation: ticket.generation, value, expiresAt });
  }
}

const caches = new WeakMap<object, DashboardCache<unknown>>();

/** The cache of the app serving this database, if it listens (a transaction or a test's stand-in has none). */
export function dashboardCacheFor<T>(db: TExecutor): DashboardCache<T> | undefined {
  return caches.get(db) as DashboardCache<T> | undefined;
}

type TLog = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

/** Called once by buildApp: caches summaries for `database.db`. Resolves to the stop. */
export async function watchDashboardChanges(database: TDatabase, log: TLog): Promise<() => Promise<void>> {
  const cache = new DashboardCache<unknown>();
  caches.set(database.db as TDb, cache);
  const stop = await database.listen(DASHBOARD_CHANNEL, {
    onMessage: (orgId) => cache.changed(orgId),
    onLost: () => {
      log.warn(
        { channel: DASHBOARD_CHANNEL, cacheSeconds: DOWN_TTL_MS / 1000 },
        'LISTEN connection lost: dashboard summaries are kept for seconds only until it is back',
      );
      cache.setListening(false);
    },
    onListening: () => {
      log.info({ channel: DASHBOARD_CHANNEL }, 'LISTEN connection back');
      cache.setListening(true);
    },
  });
  cache.setListening(true);
  return async () => {
    caches.delete(database.db);
    cache.setListening(false);
    await stop();
  };
}
