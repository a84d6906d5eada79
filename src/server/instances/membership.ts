import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { ConfigError, type TConfig } from '../config';
import type { TDatabase, TDb } from '../db/client';
import { deploymentSettings, serverInstances } from '../db/schema';
import { migrationsFolder } from '../paths';
import { decide, settingsOf } from './agreement';

// An instance on PostgreSQL joins the deployment before it serves anything: under an advisory lock
// (two instances starting together decide one after the other) it compares its settings with what
// the deployment recorded and with the live instances, refuses to start on a disagreement, and
// registers itself. It then beats its heart every HEARTBEAT_MS; an instance not seen for LIVE_MS is
// taken for gone (a killed one never says so). Embedded PGlite is one process: nothing to agree.

export const HEARTBEAT_MS = 10_000;
export const LIVE_MS = 3 * HEARTBEAT_MS;
/** Rows of instances gone this long are deleted at the next start. */
const FORGET_AFTER = '7 days';
const JOIN_LOCK_KEY = 7_240_612;

type TLog = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

export type TMembership = {
  id: string;
  /** Said once the app has a logger: settings adopted, mail kept per instance. */
  warnings: string[];
  /** Starts the heartbeat once the instance listens, with the address it listens on. */
  listening(address: string, log: TLog): void;
  /** A clean stop: the row says so at once, rather than LIVE_MS later. */
  leave(): Promise<void>;
};

/** The newest migration this code knows: what `npm run instances` shows as each one's version. */
export function codeVersion(): string {
  try {
    const journal = JSON.parse(
      fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
    ) as {
      entries: { tag: string }[];
    };
    return journal.entries.at(-1)?.tag ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function joinDeployment(database: TDatabase, config: TConfig): Promise<TMembership | null> {
  if (database.engine !== 'postgres') return null;
  const db = database.db;
  const id = uuidv7();
  const local = config.storage.driver === 'local';
  const me = {
    host: os.hostname(),
    filesDir: local ? config.storage.localDir : null,
    filesShared: local && config.storage.filesShared,
  };
  const warnings = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${JOIN_LOCK_KEY})`);
    await tx
      .delete(serverInstances)
      .where(lt(serverInstances.lastSeenAt, sql`now() - ${FORGET_AFTER}::interval`));
    const recorded = new Map(
      (
        await tx
          .select({ name: deploymentSettings.name, value: deploymentSettings.value })
          .from(deploymentSettings)
      ).map((r) => [r.name, r.value]),
    );
    const live = await tx
      .select({
        id: serverInstances.id,
        host: serverInstances.host,
        pid: serverInstances.pid,
        storageDriver: serverInstances.storageDriver,
        filesDir: serverInstances.filesDir,
        filesShared: serverInstances.filesShared,
      })
      .from(serverInstances)
      .where(
        and(
          isNull(serverInstances.stoppedAt),
          gt(serverInstances.lastSeenAt, sql`now() - ${`${LIVE_MS} milliseconds`}::interval`),
        ),
      );
    const verdict = decide({ mine: settingsOf(config), recorded, live, me });
    if (!verdict.ok) throw new ConfigError(`Refusing to start: ${verdict.message}`);
    for (const [name, value] of verdict.record) {
      await tx
        .insert(deploymentSettings)
        .values({ name, value })
        .onConflictDoUpdate({ target: deploymentSettings.name, set: { value, recordedAt: sql`now()` } });
    }
    await tx.insert(serverInstances).values({
      id,
      host: me.host,
      pid: process.pid,
      listen: `${config.host}:${config.port}`,
      version: codeVersion(),
      storageDriver: config.storage.driver,
      filesDir: me.filesDir,
      filesShared: me.filesShared,
      jobsEnabled: config.jobs.enabled,
    });
    const notes = [...verdict.warnings];
    if (!config.publicUrlSet) {
      notes.push(
        `PUBLIC_URL is not set: links and the token issuer use ${config.publicUrl}. Behind a load balancer, set it to the address people use, the same on every instance`,
      );
    }
    if (!config.mail.smtpUrl) {
      notes.push(
        `SMTP_URL is not set: mail is written to this instance's ${config.mail.outboxDir} only, not sent. With several instances each outbox holds what that instance sent`,
      );
    }
    return notes;
  });

  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  const beat = (log: TLog) =>
    db
      .update(serverInstances)
      .set({ lastSeenAt: sql`now()`, stoppedAt: null })
      .where(eq(serverInstances.id, id))
      .then(
        () => {
          if (failing) log.info({ instance: id }, 'instance heartbeat recorded again');
          failing = false;
        },
        (error: unknown) => {
          if (!failing) log.warn({ err: error, instance: id }, 'instance heartbeat not recorded');
          failing = true;
        },
      );
  return {
    id,
    warnings,
    listening(address, log) {
      void db
        .update(serverInstances)
        .set({ listen: address })
        .where(eq(serverInstances.id, id))
        .catch(() => {});
      timer = setInterval(() => void beat(log), HEARTBEAT_MS);
      timer.unref();
    },
    async leave() {
      clearInterval(timer);
      await db
        .update(serverInstances)
        .set({ stoppedAt: sql`now()` })
        .where(eq(serverInstances.id, id))
        .catch(() => {});
    },
  };
}

export type TInstanceRow = typeof serverInstances.$inferSelect & { live: boolean };

/** Every instance recorded, newest first, with whether it is live: `npm run instances`. */
export async function listInstances(db: TDb): Promise<TInstanceRow[]> {
  const rows = await db
    .select({
      row: serverInstances,
      live: sql<boolean>`${serverInstances.stoppedAt} is null and ${serverInstances.lastSeenAt} > now() - ${`${LIVE_MS} milliseconds`}::interval`,
    })
    .from(serverInstances)
    .orderBy(sql`${serverInstances.startedAt} desc`);
  return rows.map((r) => ({ ...r.row, live: r.live }));
}
