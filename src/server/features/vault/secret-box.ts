import { createHmac, hkdfSync } from 'node:crypto';
import type { TConfig } from '../../config';
import { open, seal } from './crypto';
import { vaultKeyring } from './keys';

/** Seals short secrets of other parts of the server (the identity provider's TOTP keys) as text. */
export type TSecretBox = {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
  /** A keyed hash (hex), stable while the current master key is: stand-ins that must not be guessable. */
  mac(data: string): Promise<string>;
};

const b64 = (b: Buffer) => b.toString('base64url');

/**
 * The vault's envelope encryption (its master keys, their rotation) for one-line secrets:
 * `v1$keyId$wrappedKey$iv$ciphertext$tag`. The keyring loads on first use, so a server that never
 * seals anything never needs the key file.
 */
export function secretBox(config: Pick<TConfig, 'vault'>): TSecretBox {
  return {
    async seal(plaintext, context) {
      const s = seal(await vaultKeyring(config), plaintext, context);
      return ['v1', s.keyId, b64(s.wrappedKey), b64(s.iv), b64(s.ciphertext), b64(s.tag)].join('$');
    },
    async open(text, context) {
      const [version, keyId = '', wrappedKey = '', iv = '', ciphertext = '', tag = ''] = text.split('$');
      if (version !== 'v1') throw new Error('Unknown sealed-secret format');
      const buf = (s: string) => Buffer.from(s, 'base64url');
      return open(
        await vaultKeyring(config),
        { keyId, wrappedKey: buf(wrappedKey), iv: buf(iv), ciphertext: buf(ciphertext), tag: buf(tag) },
        context,
      );
    },
    async mac(data) {
      const { current } = await vaultKeyring(config);
      const key = Buffer.from(hkdfSync('sha256', current.key, Buffer.alloc(0), 'practice.mac', 32));
      return createHmac('sha256', key).update(data).digest('hex');
    },
  };
}
