import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TConfig } from '../../config';
import type { TExecutor } from '../../db/client';
import { vaultServerSecrets } from '../../db/schema';
import { open, rewrap, seal, type TKeyring, type TSealed } from './crypto';
import { vaultKeyring } from './keys';

/** Seals short secrets of other parts of the server (the identity provider's TOTP keys) as text. */
export type TSecretBox = {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
  /** A keyed hash (hex) that a copy of the database alone cannot compute; stable across key rotation. */
  mac(data: string): Promise<string>;
};

const b64 = (b: Buffer) => b.toString('base64url');
const buf = (s: string) => Buffer.from(s, 'base64url');

function toText(s: TSealed): string {
  return ['v1', s.keyId, b64(s.wrappedKey), b64(s.iv), b64(s.ciphertext), b64(s.tag)].join('$');
}

function fromText(text: string): TSealed {
  const [version, keyId = '', wrappedKey = '', iv = '', ciphertext = '', tag = ''] = text.split('$');
  if (version !== 'v1') throw new Error('Unknown sealed-secret format');
  return { keyId, wrappedKey: buf(wrappedKey), iv: buf(iv), ciphertext: buf(ciphertext), tag: buf(tag) };
}

/** The same sealed text with its data key wrapped by the current master key (rotation). */
export function rewrapText(keyring: TKeyring, text: string, context: string): string {
  const sealed = fromText(text);
  return toText({ ...sealed, ...rewrap(keyring, sealed, context) });
}

const MAC_KEY = 'mac';
/** Binds a server secret's seal to its name. */
export const serverSecretContext = (name: string) => `vault.server-secret\u0000${name}`;
/** A firm's document-signing key (proposals' sealed PDFs), bound to the firm. */
export const signingKeyContext = (orgId: string) => `proposals.signing-key\u0000${orgId}`;

/**
 * The keyed-hash key: made once (two servers racing agree on the first row), sealed by the master
 * key like any other secret, so a rotation re-wraps it instead of changing it.
 */
async function macKey(config: Pick<TConfig, 'vault'>, db: TExecutor): Promise<Buffer> {
  const keyring = await vaultKeyring(config);
  const read = () =>
    db
      .select({ sealed: vaultServerSecrets.sealed })
      .from(vaultServerSecrets)
      .where(eq(vaultServerSecrets.name, MAC_KEY));
  let [row] = await read();
  if (!row) {
    const fresh = toText(seal(keyring, randomBytes(32).toString('base64'), serverSecretContext(MAC_KEY)));
    await db.insert(vaultServerSecrets).values({ name: MAC_KEY, sealed: fresh }).onConflictDoNothing();
    [row] = await read();
  }
  if (!row) throw new Error('The keyed-hash key could not be stored');
  return Buffer.from(open(keyring, fromText(row.sealed), serverSecretContext(MAC_KEY)), 'base64');
}

/**
 * The vault's envelope encryption (its master keys, their rotation) for one-line secrets:
 * `v1$keyId$wrappedKey$iv$ciphertext$tag`. The keyring loads on first use, so a server that never
 * seals anything never needs the key file. `db` holds the keyed-hash key: with PGlite (one
 * transaction at a time) pass the transaction the hashes are made in, or call `mac` once before.
 */
export function secretBox(config: Pick<TConfig, 'vault'>, db: TExecutor): TSecretBox {
  let key: Promise<Buffer> | null = null;
  return {
    async seal(plaintext, context) {
      return toText(seal(await vaultKeyring(config), plaintext, context));
    },
    async open(text, context) {
      return open(await vaultKeyring(config), fromText(text), context);
    },
    async mac(data) {
      if (!key) {
        key = macKey(config, db);
        key.catch(() => {
          key = null;
        });
      }
      return createHmac('sha256', await key)
        .update(data)
        .digest('hex');
    },
  };
}
