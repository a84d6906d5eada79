import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openPostgres } from '../db/client';
import { vaultKeyring } from '../features/vault';
import { createTestApp } from '../test/app';
import { randomFile, sha256, uploadFile } from '../test/files';
import { startS3 } from '../test/s3';
import { createDatabase, dropDatabase } from '../test/templates';
import { createBackup } from './create';
import { restoreBackup } from './restore';

// A backup of an instance whose files are in S3-compatible storage, restored into an empty bucket:
// the files come out of one bucket into the archive and go back into the other, byte for byte.

const pgUrl = process.env.DATABASE_URL;
const VAULT_KEYS = `k1:${randomBytes(32).toString('base64')}`;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** On PostgreSQL, an empty database of its own; on PGlite, a directory under `root`. */
async function databaseFor(root: string, name: string) {
  if (!pgUrl)
    return {
      env: {} as Record<string, string>,
      open: async () => ({ dataDir: path.join(root, name, 'db') }),
    };
  const db = `test_s3backup_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await createDatabase(pgUrl, db);
  cleanups.push(() => dropDatabase(pgUrl, db));
  const u = new URL(pgUrl);
  u.pathname = `/${db}`;
  const url = u.toString();
  // Opened only when the app starts: opening migrates, and a restore wants the database empty.
  return {
    env: { DATABASE_URL: url },
    open: async () => ({ database: await openPostgres(url, { max: 3 }) }),
  };
}

describe('backup and restore with S3 storage', () => {
  it('copies the bucket’s files into the archive and back into an empty bucket', {
    timeout: 240_000,
  }, async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'practice-backup-s3-'));
    cleanups.push(() => fs.rm(root, { recursive: true, force: true }));
    const from = await startS3('source');
    cleanups.push(() => from.close());
    const into = await startS3('restored');
    cleanups.push(() => into.close());

    const source = await databaseFor(root, 'source');
    const src = await createTestApp(
      { ...from.env, DATA_DIR: path.join(root, 'source'), VAULT_KEYS },
      await source.open(),
    );
    let archive: string;
    let bytes: Uint8Array;
    let docId: string;
    let sub: string;
    try {
      const firm = await src.seedFirm('Bucket & Co');
      sub = firm.owner.sub ?? '';
      const api = src.client(firm.owner.token);
      const folder = await api.documents.open.mutate({ clientId: null });
      bytes = randomFile(300_000);
      const up = await uploadFile(src, firm.owner.token, folder.id, 'ledger.pdf', bytes);
      expect(up.status).toBe(201);
      docId = up.body.id;
      archive = path.join(root, 'backup.tar.gz');
      const { manifest } = await createBackup({
        database: src.database,
        storage: src.storage,
        keyring: await vaultKeyring(src.config),
        out: archive,
      });
      expect(manifest.files.count).toBe(1);
    } finally {
      await src.close();
    }

    const target = await databaseFor(root, 'restored');
    const env = { ...into.env, ...target.env, DATA_DIR: path.join(root, 'restored'), VAULT_KEYS };
    await restoreBackup({ config: loadConfig({ ...env, NODE_ENV: 'test' }), file: archive });
    const app = await createTestApp(env, await target.open());
    try {
      expect(app.storage.driver).toBe('s3');
      const res = await fetch(`${app.url}/api/documents/${docId}/download`, {
        headers: { authorization: `Bearer ${await app.tokenFor(sub)}` },
      });
      expect(res.status).toBe(200);
      expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await app.close();
    }
  });
});
