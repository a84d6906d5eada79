import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Envelope encryption with AES-256-GCM from node:crypto. Each entry has its own random data key;
// the password is sealed with it, and the data key is sealed ("wrapped") with the master key named
// by keyId. Rotating the master key re-wraps the small data keys and never touches the passwords.
// Both seals carry associated data naming the firm and the entry, so a ciphertext copied onto
// another row (or another firm's row) fails authentication instead of decrypting there.

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export type TMasterKey = { id: string; key: Buffer };
export type TKeyring = { current: TMasterKey; byId: ReadonlyMap<string, Buffer> };

export type TSealed = {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  /** iv ‖ encrypted data key ‖ tag, under the master key `keyId`. */
  wrappedKey: Buffer;
  keyId: string;
};

/** A sealed value could not be opened: wrong key, or the bytes were changed. */
export class VaultCryptoError extends Error {}
/** The master key that wrapped an entry is not configured any more. */
export class VaultKeyMissingError extends VaultCryptoError {
  constructor(readonly keyId: string) {
    super(`The vault master key "${keyId}" is not configured`);
  }
}

export function keyringOf(keys: readonly TMasterKey[]): TKeyring {
  const [current] = keys;
  if (!current) throw new Error('The vault needs at least one master key');
  for (const k of keys) {
    if (k.key.length !== KEY_BYTES) throw new Error(`Vault master key ${k.id} must be ${KEY_BYTES} bytes`);
  }
  return { current, byId: new Map(keys.map((k) => [k.id, k.key])) };
}

function encrypt(key: Buffer, plaintext: Buffer, aad: string) {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function decrypt(key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, aad: string) {
  if (parts.iv.length !== IV_BYTES || parts.tag.length !== TAG_BYTES) {
    throw new VaultCryptoError('The sealed value is malformed');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, parts.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
  } catch {
    throw new VaultCryptoError('The sealed value failed authentication (wrong key or altered data)');
  }
}

const wrapAad = (keyId: string, context: string) => `practice.vault.data-key\u0000${keyId}\u0000${context}`;
const dataAad = (context: string) => `practice.vault.password\u0000${context}`;

function wrap(master: TMasterKey, dataKey: Buffer, context: string): Buffer {
  const sealed = encrypt(master.key, dataKey, wrapAad(master.id, context));
  return Buffer.concat([sealed.iv, sealed.ciphertext, sealed.tag]);
}

function unwrap(keyring: TKeyring, keyId: string, wrappedKey: Buffer, context: string): Buffer {
  const master = keyring.byId.get(keyId);
  if (!master) throw new VaultKeyMissingError(keyId);
  if (wrappedKey.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) {
    throw new VaultCryptoError('The wrapped data key is malformed');
  }
  return decrypt(
    master,
    {
      iv: wrappedKey.subarray(0, IV_BYTES),
      ciphertext: wrappedKey.subarray(IV_BYTES, IV_BYTES + KEY_BYTES),
      tag: wrappedKey.subarray(IV_BYTES + KEY_BYTES),
    },
    wrapAad(keyId, context),
  );
}

/** Seals a secret under a fresh data key wrapped by the current master key. `context` binds it to its row. */
export function seal(keyring: TKeyring, plaintext: string, context: string): TSealed {
  const dataKey = randomBytes(KEY_BYTES);
  try {
    const sealed = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), dataAad(context));
    return { ...sealed, wrappedKey: wrap(keyring.current, dataKey, context), keyId: keyring.current.id };
  } finally {
    dataKey.fill(0);
  }
}

export function open(keyring: TKeyring, sealed: TSealed, context: string): string {
  const dataKey = unwrap(keyring, sealed.keyId, sealed.wrappedKey, context);
  try {
    return decrypt(dataKey, sealed, dataAad(context)).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

/** The same data key wrapped by the current master key; the password's ciphertext is unchanged. */
export function rewrap(
  keyring: TKeyring,
  sealed: Pick<TSealed, 'wrappedKey' | 'keyId'>,
  context: string,
): Pick<TSealed, 'wrappedKey' | 'keyId'> {
  const dataKey = unwrap(keyring, sealed.keyId, sealed.wrappedKey, context);
  try {
    return { wrappedKey: wrap(keyring.current, dataKey, context), keyId: keyring.current.id };
  } finally {
    dataKey.fill(0);
  }
}
