import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// SRP-6a as Cognito (and Amplify's AuthenticationHelper) does it: IDP.md §4. BigInt arithmetic;
// hashes, HMAC and randomness from node:crypto.

/** The 3072-bit prime of RFC 5054. */
export const N = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
export const g = 2n;

/** Even-length hex, with `00` in front when the first nibble is 8-f (minimal two's complement). */
export function padHex(n: bigint): string {
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
}

/** SHA-256 of the bytes a hex string spells, as 64 hex digits. */
export function hashHex(hex: string): string {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
}

export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = ((base % modulus) + modulus) % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

export const k = BigInt(`0x${hashHex(padHex(N) + padHex(g))}`);

const toBig = (hex: string) => BigInt(`0x${hex}`);

/** x = H(padHex(salt) ‖ SHA256_hex(poolName ‖ userId ‖ ":" ‖ password)). */
export function computeX(saltHex: string, poolName: string, userId: string, password: string): bigint {
  return toBig(hashHex(padHex(toBig(saltHex)) + hashText(`${poolName}${userId}:${password}`)));
}

/** A new salt (16 random bytes) and verifier v = g^x for a password; both as padded hex. */
export function makeVerifier(
  poolName: string,
  userId: string,
  password: string,
): { salt: string; verifier: string } {
  const salt = padHex(toBig(randomBytes(16).toString('hex')));
  return { salt, verifier: padHex(modPow(g, computeX(salt, poolName, userId, password), N)) };
}

/**
 * A salt and verifier for a user name nobody has, from a keyed hash of that name: the same name
 * always gets the same salt (as a real user does), and no password matches.
 */
export function standInVerifier(macHex: string): { salt: string; verifier: string } {
  return { salt: padHex(toBig(macHex.slice(0, 32))), verifier: padHex(toBig(macHex.repeat(12)) % N) };
}

export type TServerSrp = { b: string; B: string };

/** The server's ephemeral pair: random b (256 bits), B = (k·v + g^b) mod N, never 0. */
export function serverEphemeral(verifierHex: string, bHex?: string): TServerSrp {
  const v = toBig(verifierHex);
  for (;;) {
    const b = toBig(bHex ?? randomBytes(32).toString('hex'));
    const B = (k * v + modPow(g, b, N)) % N;
    if (B !== 0n) return { b: b.toString(16), B: B.toString(16) };
    if (bHex) throw new Error('B is zero');
  }
}

/** Parses SRP_A; null when it is not hex or A ≡ 0 (mod N). */
export function parseA(srpA: unknown): bigint | null {
  if (typeof srpA !== 'string' || !/^[0-9a-fA-F]{1,2048}$/.test(srpA)) return null;
  const A = toBig(srpA);
  return A % N === 0n ? null : A;
}

/** The 16-byte key both sides derive (HKDF over S with u as salt, "Caldera Derived Key"). */
export function sessionKey(input: { A: bigint; B: bigint; b: bigint; v: bigint }): Buffer | null {
  const u = toBig(hashHex(padHex(input.A) + padHex(input.B)));
  if (u === 0n) return null;
  const S = modPow((input.A * modPow(input.v, u, N)) % N, input.b, N);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex'))
    .update(Buffer.from(padHex(S), 'hex'))
    .digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
}

/** base64(HMAC-SHA256(K, poolName ‖ userId ‖ bytes(SECRET_BLOCK) ‖ TIMESTAMP)). */
export function claimSignature(
  key: Buffer,
  poolName: string,
  userId: string,
  secretBlock: string,
  timestamp: string,
) {
  return createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(poolName + userId, 'utf8'),
        Buffer.from(secretBlock, 'base64'),
        Buffer.from(timestamp, 'utf8'),
      ]),
    )
    .digest('base64');
}

/** Checks PASSWORD_CLAIM_SIGNATURE in constant time. */
export function verifyClaim(input: {
  A: string;
  B: string;
  b: string;
  verifier: string;
  poolName: string;
  userId: string;
  secretBlock: string;
  timestamp: string;
  signature: string;
}): boolean {
  const A = parseA(input.A);
  if (A === null) return false;
  const key = sessionKey({ A, B: toBig(input.B), b: toBig(input.b), v: toBig(input.verifier) });
  if (!key) return false;
  const expected = Buffer.from(
    claimSignature(key, input.poolName, input.userId, input.secretBlock, input.timestamp),
    'base64',
  );
  const given = Buffer.from(input.signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
