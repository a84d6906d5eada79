import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type TConfig } from '../../config';
import { keyringOf, type TKeyring, type TMasterKey } from './crypto';

// Where the vault's master keys come from: VAULT_KEYS when set (required with PostgreSQL, so every
// instance shares them), otherwise a key file in the data directory, created on first start with
// mode 0600. A key file that others may read is refused rather than silently tightened: wider
// permissions mean the key may already have leaked, and a person should decide what to do.

/** The key file's format, one key a line (`id:base64key`); the first line is the current key. */
export function parseKeyFile(text: string, file: string): TMasterKey[] {
  const keys: TMasterKey[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^([A-Za-z0-9_.-]{1,40}):([A-Za-z0-9+/]+={0,2})$/.exec(line);
    const key = match ? Buffer.from(match[2] ?? '', 'base64') : null;
    if (!match || !key || key.length !== 32) {
      throw new ConfigError(`Vault key file ${file}, line ${index + 1}: expected id:base64 of 32 bytes`);
    }
    keys.push({ id: match[1] ?? '', key });
  }
  if (!keys.length) throw new ConfigError(`Vault key file ${file} holds no key`);
  return keys;
}

async function readKeyFile(file: string): Promise<TMasterKey[]> {
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new ConfigError(`Vault key file ${file} does not exist (set VAULT_KEYS or DATA_DIR)`);
    throw error;
  });
  if (process.platform !== 'win32') {
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw new ConfigError(
        `Vault key file ${file} has mode ${mode}: it must be readable by its owner only (chmod 600), and if others could read it, rotate the key`,
      );
    }
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0 && stat.uid !== uid) {
      throw new ConfigError(`Vault key file ${file} belongs to another user: it must belong to the server's`);
    }
  }
  return parseKeyFile(await fs.readFile(file, 'utf8'), file);
}

/** Creates the key file once (exclusive create, so two starts never write two keys); reads it after. */
export async function keyFileKeys(file: string, options: { create?: boolean } = {}): Promise<TMasterKey[]> {
  if (options.create === false) return readKeyFile(file);
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    const handle = await fs.open(file, 'wx', 0o600);
    try {
      const id = `local-${randomBytes(4).toString('hex')}`;
      await handle.writeFile(
        `# The vault's master key: back it up with the database, never beside it. See README "Vault keys".\n${id}:${randomBytes(32).toString('base64')}\n`,
      );
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readKeyFile(file);
}

/** `create: false` for tools (key rotation) that must never invent a key the data was not sealed with. */
export async function loadKeyring(
  vault: TConfig['vault'],
  options: { create?: boolean } = {},
): Promise<TKeyring> {
  return keyringOf(vault.keys ?? (await keyFileKeys(vault.keyFile, options)));
}

const cache = new WeakMap<TConfig['vault'], Promise<TKeyring>>();

/** The keyring of a configuration, loaded once per process (main.ts loads it at start-up). */
export function vaultKeyring(config: Pick<TConfig, 'vault'>): Promise<TKeyring> {
  let keyring = cache.get(config.vault);
  if (!keyring) {
    keyring = loadKeyring(config.vault);
    // A failure is not cached: fixing the file's mode must not need a restart of every test.
    keyring.catch(() => cache.delete(config.vault));
    cache.set(config.vault, keyring);
  }
  return keyring;
}
