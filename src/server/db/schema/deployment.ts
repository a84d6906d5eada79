import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The settings every instance of a deployment must share, as the first instance to start recorded
 * them (`src/server/instances/`): the public URL, the storage driver and bucket, and one row per
 * vault key id with a keyed hash made under that key (never the key). An instance whose settings
 * disagree refuses to start, naming the setting.
 */
export const deploymentSettings = pgTable('deployment_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The server processes sharing this database, each beating its heart while it runs: what
 * `npm run instances` lists, and how a starting instance sees which others are live.
 */
export const serverInstances = pgTable(
  'server_instances',
  {
    id: uuid('id').primaryKey(),
    host: text('host').notNull(),
    pid: integer('pid').notNull(),
    /** Where it listens, as it says (`host:port`). */
    listen: text('listen').notNull(),
    version: text('version').notNull(),
    storageDriver: text('storage_driver').notNull(),
    /** Local storage only: the files directory, on `host`. */
    filesDir: text('files_dir'),
    filesShared: boolean('files_shared').notNull().default(false),
    jobsEnabled: boolean('jobs_enabled').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by a clean stop; a killed instance just stops beating. */
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  },
  (t) => [index('server_instances_last_seen_idx').on(t.lastSeenAt)],
);

/** The per-call rate limit's counters when kept in PostgreSQL (http/rate-limit-store.ts). */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_window_idx').on(t.windowEndsAt)],
);
