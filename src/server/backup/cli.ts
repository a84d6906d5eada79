import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openPglite, openPostgres } from '../db/client';
import { acquireDirLock, DirLockedError } from '../db/dir-lock';
import { loadKeyring } from '../features/vault';
import { createStorage } from '../files/storage';
import { BackupError, unpackVerified } from './archive';
import { createBackup } from './create';
import type { TManifest } from './manifest';
import { restoreBackup } from './restore';
import { requestServerBackup } from './socket';

// `npm run backup -- <file>` and `npm run restore -- <file> [--vault-key-file <path>]`, with the
// server's own environment (DATA_DIR, DATABASE_URL, STORAGE_DRIVER, VAULT_KEYS …).

const summary = (m: TManifest) => {
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  return `${Object.keys(m.tables).length} tables, ${rows} rows, ${m.files.count} files (${m.files.bytes} bytes), migration ${m.migration.tag}; needs vault key ${m.vault.keyIds.join(', ') || '(none)'}`;
};

async function backup(out: string) {
  const config = loadConfig();
  const file = path.resolve(out);
  if (config.databaseUrl) {
    const database = await openPostgres(config.databaseUrl, { max: 2 });
    try {
      const keyring = await loadKeyring(config.vault, { create: false });
      const storage = await createStorage(config);
      await createBackup({ database, storage, keyring, out: file });
    } finally {
      await database.close();
    }
  } else {
    const dir = path.join(config.dataDir, 'db');
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new BackupError(`There is no database in ${dir}`);
    let serverRuns = false;
    try {
      await acquireDirLock(dir)();
    } catch (error) {
      if (!(error instanceof DirLockedError)) throw error;
      serverRuns = true;
    }
    if (serverRuns) {
      await requestServerBackup(config.dataDir, file);
    } else {
      const database = await openPglite(dir);
      try {
        const keyring = await loadKeyring(config.vault, { create: false });
        await createBackup({ database, storage: await createStorage(config), keyring, out: file });
      } finally {
        await database.close();
      }
    }
  }
  // Read back and checked, as a restore would, before saying it is good.
  const check = fs.mkdtempSync(path.join(path.dirname(file), '.practice-check-'));
  try {
    const manifest = await unpackVerified(file, check);
    console.log(
      `Backup written to ${file}: ${summary(manifest)}; the database held requests for ${manifest.blockedMs} ms.`,
    );
  } finally {
    fs.rmSync(check, { recursive: true, force: true });
  }
}

async function restore(args: string[]) {
  const at = args.indexOf('--vault-key-file');
  const vaultKeyFile = at >= 0 ? args[at + 1] : undefined;
  const file = args.find((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  if (!file) throw new BackupError('usage: npm run restore -- <file> [--vault-key-file <path>]');
  const config = loadConfig();
  const manifest = await restoreBackup({ config, file: path.resolve(file), vaultKeyFile });
  const target = config.databaseUrl ? 'the database of DATABASE_URL' : config.dataDir;
  console.log(`Restored ${file} (made ${manifest.createdAt}) into ${target}: ${summary(manifest)}.`);
}

const [command, ...args] = process.argv.slice(2);
const work =
  command === 'backup'
    ? args[0]
      ? backup(args[0])
      : Promise.reject(new BackupError('usage: npm run backup -- <file>'))
    : restore(args);
work.catch((error) => {
  if (error instanceof BackupError || error instanceof ConfigError || error instanceof DirLockedError) {
    console.error(error.message);
  } else console.error(error);
  process.exit(1);
});
