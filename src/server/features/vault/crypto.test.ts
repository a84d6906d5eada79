import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { keyringOf, open, rewrap, seal, VaultCryptoError, VaultKeyMissingError } from './crypto';
import { keyFileKeys, loadKeyring } from './keys';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };
const ring1 = keyringOf([k1]);

describe('envelope encryption', () => {
  it('round-trips any text, with a fresh data key and IV each time', () => {
    for (const secret of ['hunter2', ' leading and trailing ', 'пароль-密码-🔐', 'x'.repeat(1000)]) {
      const sealed = seal(ring1, secret, 'org:entry');
      expect(open(ring1, sealed, 'org:entry')).toBe(secret);
      expect(sealed.keyId).toBe('k1');
      expect(sealed.iv).toHaveLength(12);
      expect(sealed.tag).toHaveLength(16);
      expect(sealed.wrappedKey).toHaveLength(60);
      expect(sealed.ciphertext.includes(Buffer.from(secret))).toBe(false);
    }
    const a = seal(ring1, 'same', 'c');
    const b = seal(ring1, 'same', 'c');
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.wrappedKey.equals(b.wrappedKey)).toBe(false);
  });

  it('detects a flipped byte in the ciphertext, IV, tag or wrapped key', () => {
    const sealed = seal(ring1, 'correct horse battery staple', 'org:entry');
    for (const part of ['ciphertext', 'iv', 'tag', 'wrappedKey'] as const) {
      const bytes = Buffer.from(sealed[part]);
      bytes[3] = (bytes[3] ?? 0) ^ 0x01;
      expect(() => open(ring1, { ...sealed, [part]: bytes }, 'org:entry'), part).toThrow(VaultCryptoError);
    }
  });

  it('refuses a sealed value moved to another row or firm (the context is authenticated)', () => {
    const sealed = seal(ring1, 'secret', 'org-a:entry-1');
    expect(() => open(ring1, sealed, 'org-a:entry-2')).toThrow(VaultCryptoError);
    expect(() => open(ring1, sealed, 'org-b:entry-1')).toThrow(VaultCryptoError);
  });

  it('names a missing master key, and a wrong key with the same id fails authentication', () => {
    const sealed = seal(keyringOf([k2, k1]), 'secret', 'c');
    expect(sealed.keyId).toBe('k2');
    expect(() => open(ring1, sealed, 'c')).toThrow(VaultKeyMissingError);
    const impostor = keyringOf([{ id: 'k2', key: randomBytes(32) }]);
    expect(() => open(impostor, sealed, 'c')).toThrow(VaultCryptoError);
  });

  it('rewraps the data key under the current key; the old key is then not needed', () => {
    const sealed = seal(ring1, 'rotate me', 'c');
    const both = keyringOf([k2, k1]);
    expect(open(both, sealed, 'c')).toBe('rotate me');
    const next = { ...sealed, ...rewrap(both, sealed, 'c') };
    expect(next.keyId).toBe('k2');
    expect(next.ciphertext.equals(sealed.ciphertext)).toBe(true);
    expect(open(keyringOf([k2]), next, 'c')).toBe('rotate me');
  });
});

describe('master keys', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads VAULT_KEYS, the first key current, and refuses a malformed value naming the variable', async () => {
    const env = `a1:${k1.key.toString('base64')}, b2:${k2.key.toString('base64')}`;
    const config = loadConfig({ VAULT_KEYS: env });
    const keyring = await loadKeyring(config.vault);
    expect(keyring.current.id).toBe('a1');
    expect(keyring.byId.get('b2')?.equals(k2.key)).toBe(true);
    for (const bad of [
      'nokey',
      `a:${randomBytes(16).toString('base64')}`,
      `a:${k1.key.toString('base64')},a:${k2.key.toString('base64')}`,
    ]) {
      expect(() => loadConfig({ VAULT_KEYS: bad })).toThrow(/^Invalid configuration: VAULT_KEYS: /);
    }
  });

  it('is required with PostgreSQL, where several instances must share it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y' })).toThrow(
      /VAULT_KEYS: required when DATABASE_URL is set/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://x/y', VAULT_KEYS: `k:${k1.key.toString('base64')}` }).vault.keys,
    ).toHaveLength(1);
  });

  it.skipIf(process.platform === 'win32')(
    'creates the key file once, owner-only, and keeps using it',
    async () => {
      const dir = tmp();
      const config = loadConfig({ DATA_DIR: path.join(dir, 'nested') });
      const first = await loadKeyring(config.vault);
      expect(fs.statSync(config.vault.keyFile).mode & 0o777).toBe(0o600);
      const again = await loadKeyring(config.vault);
      expect(again.current.id).toBe(first.current.id);
      expect(again.current.key.equals(first.current.key)).toBe(true);
      expect(first.current.id).toMatch(/^local-[0-9a-f]{8}$/);
    },
  );

  it.skipIf(process.platform === 'win32')('refuses a key file others may read', async () => {
    const file = path.join(tmp(), 'vault.key');
    await keyFileKeys(file);
    fs.chmodSync(file, 0o644);
    await expect(keyFileKeys(file)).rejects.toThrow(ConfigError);
    await expect(keyFileKeys(file)).rejects.toThrow(/mode 0644: it must be readable by its owner only/);
    fs.chmodSync(file, 0o600);
    await expect(keyFileKeys(file)).resolves.toHaveLength(1);
  });

  it('never creates a key file when asked not to (key rotation must use the existing key)', async () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    await expect(loadKeyring(config.vault, { create: false })).rejects.toThrow(/does not exist/);
    expect(fs.existsSync(config.vault.keyFile)).toBe(false);
  });

  it('reads several keys from the file (rotation in embedded mode) and refuses a damaged line', async () => {
    const file = path.join(tmp(), 'vault.key');
    fs.writeFileSync(
      file,
      `# comment\nnew:${k2.key.toString('base64')}\nold:${k1.key.toString('base64')}\n`,
      {
        mode: 0o600,
      },
    );
    const keys = await keyFileKeys(file);
    expect(keys.map((k) => k.id)).toEqual(['new', 'old']);
    fs.writeFileSync(file, 'new:short\n');
    await expect(keyFileKeys(file)).rejects.toThrow(/line 1: expected id:base64 of 32 bytes/);
  });
});
