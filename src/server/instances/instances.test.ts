import { randomBytes } from 'node:crypto';
import { isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import type { TDatabase } from '../db/client';
import { deploymentSettings, serverInstances } from '../db/schema';
import { createTestDatabase } from '../test/database';
import { vaultKeyFingerprint } from './agreement';
import { joinDeployment, LIVE_MS, listInstances, type TMembership } from './membership';

// Instances on one PostgreSQL database agree on the settings that must match, or the newcomer
// refuses to start naming the setting (never a secret). Embedded PGlite has nothing to agree on.

const KEY = randomBytes(32).toString('base64');
const base = {
  DATABASE_URL: 'postgres://unused',
  PUBLIC_URL: 'https://practice.example',
  VAULT_KEYS: `k1:${KEY}`,
  STORAGE_DRIVER: 's3',
  S3_BUCKET: 'documents',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};
const configOf = (env: Record<string, string> = {}) => loadConfig({ ...base, ...env });

let database: TDatabase;
const joined: TMembership[] = [];
const join = async (env: Record<string, string> = {}) => {
  const membership = await joinDeployment(database, configOf(env));
  if (membership) joined.push(membership);
  return membership;
};
/** The refusal's message, or null when it joined. */
const refusal = (env: Record<string, string>) =>
  join(env).then(
    () => null,
    (error: unknown) => {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    },
  );
const leaveAll = async () => {
  for (const m of joined.splice(0)) await m.leave();
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await leaveAll();
  await database?.close();
});

describe.runIf(process.env.DATABASE_URL)('instances on PostgreSQL', () => {
  it('record the deployment at the first start, and list each instance while it beats', async () => {
    const first = await join();
    expect(first?.warnings).toEqual([]);
    const settings = await database.db.select().from(deploymentSettings);
    expect(Object.fromEntries(settings.map((s) => [s.name, s.value]))).toEqual({
      public_url: 'https://practice.example',
      storage_driver: 's3',
      s3_bucket: 'documents',
      'vault_key:k1': vaultKeyFingerprint(Buffer.from(KEY, 'base64')),
    });
    // A fingerprint, not the key.
    expect(JSON.stringify(settings)).not.toContain(KEY);
    await join();
    const rows = await listInstances(database.db);
    expect(rows.filter((r) => r.live)).toHaveLength(2);
    expect(rows[0]).toMatchObject({ storageDriver: 's3', pid: process.pid, jobsEnabled: true });
  });

  it('refuse a vault key id whose key differs, naming VAULT_KEYS and never a key', async () => {
    const other = randomBytes(32).toString('base64');
    const message = await refusal({ VAULT_KEYS: `k1:${other}` });
    expect(message).toMatch(
      /^Refusing to start: VAULT_KEYS: key "k1" is not the key this deployment recorded/,
    );
    expect(message).not.toContain(other);
    expect(message).not.toContain(KEY);
    // A new key under a new id (a rotation) is recorded beside it.
    expect(await refusal({ VAULT_KEYS: `k2:${other},k1:${KEY}` })).toBeNull();
  });

  it('refuse another PUBLIC_URL or storage while instances run, and adopt it once none does', async () => {
    expect(await refusal({ PUBLIC_URL: 'http://localhost:3000' })).toMatch(
      /^Refusing to start: PUBLIC_URL: this instance has "http:\/\/localhost:3000" but the running instances use "https:\/\/practice.example"/,
    );
    expect(await refusal({ S3_BUCKET: 'elsewhere' })).toMatch(/^Refusing to start: S3_BUCKET: /);
    expect(await refusal({ STORAGE_DRIVER: 'local' })).toMatch(/^Refusing to start: STORAGE_DRIVER: /);
    await leaveAll();
    const moved = await join({ PUBLIC_URL: 'https://new.example' });
    expect(moved?.warnings).toEqual([
      'PUBLIC_URL changed from "https://practice.example" to "https://new.example" (no other instance is running): this is now the deployment\'s PUBLIC_URL',
    ]);
    await leaveAll();
  });

  it('refuse a second instance keeping files on its own disk, unless every one says the directory is shared', async () => {
    const local = { STORAGE_DRIVER: 'local', PUBLIC_URL: 'https://new.example' };
    const first = await join({ ...local, DATA_DIR: '/srv/a' });
    expect(first?.warnings).toEqual([
      'STORAGE_DRIVER changed from "s3" to "local" (no other instance is running): this is now the deployment\'s STORAGE_DRIVER',
    ]);
    // The same directory on the same machine (a restart beside the old process) is the same files.
    expect(await refusal({ ...local, DATA_DIR: '/srv/a' })).toBeNull();
    expect(await refusal({ ...local, DATA_DIR: '/srv/b' })).toMatch(
      /^Refusing to start: STORAGE_DRIVER: this instance keeps files on its own disk .* set FILES_SHARED=true on each/,
    );
    expect(await refusal({ ...local, DATA_DIR: '/srv/b', FILES_SHARED: 'true' })).toMatch(/STORAGE_DRIVER/);
    await leaveAll();
    await join({ ...local, DATA_DIR: '/srv/a', FILES_SHARED: 'true' });
    expect(await refusal({ ...local, DATA_DIR: '/srv/b', FILES_SHARED: 'true' })).toBeNull();
    await leaveAll();
  });

  it('take an instance whose heartbeat stopped for gone (a killed one never says so)', async () => {
    await join();
    expect(await refusal({ PUBLIC_URL: 'https://killed.example' })).toMatch(
      /^Refusing to start: PUBLIC_URL: /,
    );
    // No beat for longer than the live window, as after a SIGKILL.
    await database.db
      .update(serverInstances)
      .set({ lastSeenAt: new Date(Date.now() - LIVE_MS - 5_000) })
      .where(isNull(serverInstances.stoppedAt));
    expect((await listInstances(database.db)).filter((r) => r.live)).toEqual([]);
    expect(await refusal({ PUBLIC_URL: 'https://killed.example' })).toBeNull();
    await leaveAll();
  });

  it('say at start what is kept per instance: mail without SMTP_URL, the default PUBLIC_URL', async () => {
    const alone = await join({ SMTP_URL: '', PUBLIC_URL: '' });
    expect(alone?.warnings.join('\n')).toMatch(/PUBLIC_URL is not set/);
    expect(alone?.warnings.join('\n')).toMatch(/SMTP_URL is not set: mail is written to this instance's/);
    await leaveAll();
  });
});

it.runIf(!process.env.DATABASE_URL)(
  'leave embedded PGlite alone: one process, nothing to agree on',
  async () => {
    expect(await join({ DATABASE_URL: '', VAULT_KEYS: '' })).toBeNull();
  },
);
