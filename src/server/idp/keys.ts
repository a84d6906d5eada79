import { randomUUID } from 'node:crypto';
import { desc, isNull } from 'drizzle-orm';
import {
  type CryptoKey,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
} from 'jose';
import type { TDb } from '../db/client';
import { idpSigningKeys } from '../db/schema';

export type TSigningKey = { kid: string; privateKey: CryptoKey; publicJwk: JWK };

/**
 * The identity provider's RS256 keys, kept in the database so every instance shares them. The
 * newest unretired key signs; every unretired key verifies (a rotation keeps old tokens valid).
 */
export class IdpKeys {
  private verifyKeys = new Map<string, CryptoKey>();
  private signing: TSigningKey | undefined;

  /**
   * The latest load. A first start makes the first key while the server starts listening (the RSA
   * generation takes 0.1-0.3 s): signing, verifying and the JWKS wait for it rather than the start.
   */
  private loading: Promise<void> | undefined;

  constructor(private readonly db: TDb) {}

  load(): Promise<void> {
    const loading = this.read();
    this.loading = loading;
    return loading;
  }

  private async read(): Promise<void> {
    let rows = await this.db
      .select()
      .from(idpSigningKeys)
      .where(isNull(idpSigningKeys.retiredAt))
      .orderBy(desc(idpSigningKeys.createdAt));
    if (rows.length === 0) {
      await this.create();
      rows = await this.db
        .select()
        .from(idpSigningKeys)
        .where(isNull(idpSigningKeys.retiredAt))
        .orderBy(desc(idpSigningKeys.createdAt));
    }
    const verifyKeys = new Map<string, CryptoKey>();
    for (const row of rows) {
      verifyKeys.set(row.kid, (await importJWK(row.publicJwk, 'RS256')) as CryptoKey);
    }
    this.verifyKeys = verifyKeys;
    const newest = rows[0];
    if (newest) {
      this.signing = {
        kid: newest.kid,
        privateKey: await importPKCS8(newest.privatePem, 'RS256'),
        publicJwk: newest.publicJwk,
      };
    }
  }

  /** Waits for a load under way; its failure is the next caller's to retry, not to inherit. */
  private async settled(): Promise<void> {
    await this.loading?.catch(() => {});
  }

  /** Adds a new signing key; two instances racing at first start both insert, and both keys work. */
  async create(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', {
      modulusLength: 2048,
      extractable: true,
    });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } as unknown as Record<
      string,
      string
    >;
    await this.db
      .insert(idpSigningKeys)
      .values({ kid, publicJwk, privatePem: await exportPKCS8(privateKey) });
  }

  async signingKey(): Promise<TSigningKey> {
    await this.settled();
    if (!this.signing) await this.load();
    if (!this.signing) throw new Error('IdP keys are not loaded');
    return this.signing;
  }

  /** Finds the key for a token's kid, reloading once in case another instance rotated keys. */
  async verifyKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (!kid) return undefined;
    await this.settled();
    const known = this.verifyKeys.get(kid);
    if (known) return known;
    await this.load();
    return this.verifyKeys.get(kid);
  }

  async jwks(): Promise<{ keys: Record<string, string>[] }> {
    // Before the first key exists, an empty set would be cached by clients for five minutes.
    await this.settled();
    const rows = await this.db.select().from(idpSigningKeys).where(isNull(idpSigningKeys.retiredAt));
    return { keys: rows.map((r) => r.publicJwk) };
  }
}
