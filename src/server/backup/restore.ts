import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import { keyFileKeys, keyringOf, parseKeyFile, type TKeyring } from '../features/vault';
import { createStorage } from '../files/storage';
import { BackupError, membersOf, readManifest, unpackVerified } from './archive';
import { databaseFacts, journal, keyCheck, type TManifest } from './manifest';

/** What may already be in a DATA_DIR to restore into: the vault key put back first. */
const ALLOWED_IN_TARGET = new Set(['vault.key']);

async function assertEmptyTarget(config: TConfig) {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
      );
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) {
        throw new BackupError(
          `The database named by DATABASE_URL is not empty (${n} tables): restore only into a new, empty database`,
        );
      }
    } finally {
      await client.end();
    }
  } else {
    const entries = await fs.readdir(config.dataDir).catch(() => [] as string[]);
    const extra = entries.filter((e) => !ALLOWED_IN_TARGET.has(e));
    if (extra.length) {
      throw new BackupError(
        `DATA_DIR ${config.dataDir} is not empty (${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ', …' : ''}): restore only into an empty or new directory`,
      );
    }
  }
  if (config.storage.driver === 's3' || config.databaseUrl) {
    const storage = await createStorage(config);
    for await (const _ of storage.list('')) {
      throw new BackupError(
        config.storage.driver === 's3'
          ? `The bucket ${config.storage.s3.bucket} already holds files: restore only into an empty bucket`
          : `${config.storage.localDir} already holds files: restore only into an empty directory`,
      );
    }
  }
}

async function keyringFor(config: TConfig, vaultKeyFile?: string): Promise<TKeyring | null> {
  if (vaultKeyFile) return keyringOf(parseKeyFile(await fs.readFile(vaultKeyFile, 'utf8'), vaultKeyFile));
  if (config.vault.keys) return keyringOf(config.vault.keys);
  const exists = await fs.stat(config.vault.keyFile).then(
    () => true,
    () => false,
  );
  return exists ? keyringOf(await keyFileKeys(config.vault.keyFile, { create: false })) : null;
}

/** Refuses before anything is written when the keys at hand cannot open the archive's vault. */
function assertKeys(manifest: TManifest, keyring: TKeyring | null) {
  for (const id of manifest.vault.keyIds) {
    const key = keyring?.byId.get(id);
    if (!key) {
      throw new BackupError(
        `This backup needs the vault key "${id}": set VAULT_KEYS, or pass --vault-key-file with the key file kept from the backed-up instance`,
      );
    }
    const check = manifest.vault.check[id];
    if (check && keyCheck(key) !== check) {
      throw new BackupError(
        `The vault key "${id}" given is not the key this backup was made with: nothing was restored`,
      );
    }
  }
}

function pgRestore(url: string, dump: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, dump],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', (error) =>
      reject(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? new BackupError(
              'pg_restore is not installed on this machine (the PostgreSQL client tools are needed)',
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`pg_restore failed (${code}): ${err.trim().slice(-2000)}`)),
    );
  });
}

/** The restored database's tables and rows, compared with the manifest's. */
async function assertRestored(config: TConfig, manifest: TManifest) {
  let tables: Record<string, number>;
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      tables = (await databaseFacts(drizzlePg({ client }) as unknown as TDb)).tables;
    } finally {
      await client.end();
    }
  } else {
    // Never migrated here: the server's next start does that, as after any upgrade.
    const client = await PGlite.create(path.join(config.dataDir, 'db'), {
      extensions: { pg_trgm, btree_gin },
    });
    try {
      tables = (await databaseFacts(drizzlePglite({ client }) as unknown as TDb)).tables;
    } finally {
      await client.close();
    }
  }
  for (const [name, rows] of Object.entries(manifest.tables)) {
    if (tables[name] !== rows) {
      throw new BackupError(
        `The restored table ${name} has ${tables[name] ?? 0} rows, not the ${rows} of the backup`,
      );
    }
  }
}

/**
 * Brings an archive back into an empty target: DATA_DIR (PGlite) or the database of DATABASE_URL,
 * and the configured file storage. Everything is checked (empty target, checksums, engine,
 * migration known to this version, vault keys) before the first byte lands in the target.
 */
export async function restoreBackup(options: { config: TConfig; file: string; vaultKeyFile?: string }) {
  const { config, file, vaultKeyFile } = options;
  await fs.access(file).catch(() => {
    throw new BackupError(`${file} does not exist or cannot be read`);
  });
  await assertEmptyTarget(config);
  const keyring = await keyringFor(config, vaultKeyFile);
  const manifest = await readManifest(file);
  const engine = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.engine !== engine) {
    throw new BackupError(
      manifest.engine === 'pglite'
        ? 'This backup is of an embedded (PGlite) instance: restore it with DATABASE_URL unset'
        : 'This backup is of a PostgreSQL instance: restore it with DATABASE_URL naming an empty database',
    );
  }
  if (!journal().some((e) => e.tag === manifest.migration.tag)) {
    throw new BackupError(
      `This backup was made by a newer version (${manifest.product.version}, migration ${manifest.migration.tag}): restore it with that version or later`,
    );
  }
  assertKeys(manifest, keyring);
  await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const staging = await fs.mkdtemp(path.join(config.dataDir, '.restore-'));
  try {
    const unpacked = await unpackVerified(file, staging);
    if (JSON.stringify(unpacked) !== JSON.stringify(manifest)) {
      throw new BackupError(`${file} holds more than one manifest: it was altered`);
    }
    if (engine === 'pglite') {
      await fs.rename(path.join(staging, 'database', 'pgdata'), path.join(config.dataDir, 'db'));
    } else {
      await pgRestore(config.databaseUrl ?? '', path.join(staging, 'database', 'postgres.dump'));
    }
    const storage = await createStorage(config);
    for (const member of await membersOf(staging, ['files'])) {
      const key = member.path.slice('files/'.length);
      await storage.put(key, createReadStream(path.join(staging, member.path)));
    }
    if (vaultKeyFile && !config.vault.keys) {
      await fs.copyFile(vaultKeyFile, config.vault.keyFile);
      await fs.chmod(config.vault.keyFile, 0o600);
    }
    await assertRestored(config, manifest);
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
