import { createHmac, randomBytes } from 'node:crypto';
import { claimSignature, computeX, g, hashHex, k, modPow, N, padHex } from './srp';

// The client's side of SRP for tests, written from the textbook formulas rather than the server's.

const big = (hex: string) => BigInt(`0x${hex}`);

/** The client's side, written from the textbook formulas (not the server's): S = (B − k·g^x)^(a + u·x). */
export function clientProof(input: {
  poolName: string;
  userId: string;
  password: string;
  salt: string;
  B: string;
  secretBlock: string;
  timestamp: string;
  a?: bigint;
}) {
  const a = input.a ?? big(randomBytes(128).toString('hex'));
  const A = modPow(g, a, N);
  const B = big(input.B);
  const u = big(hashHex(padHex(A) + padHex(B)));
  const x = computeX(input.salt, input.poolName, input.userId, input.password);
  const base = (((B - k * modPow(g, x, N)) % N) + N) % N;
  const S = modPow(base, a + u * x, N);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex'))
    .update(Buffer.from(padHex(S), 'hex'))
    .digest();
  const key = createHmac('sha256', prk).update('Caldera Derived Key\u0001').digest().subarray(0, 16);
  return {
    A: A.toString(16),
    signature: claimSignature(key, input.poolName, input.userId, input.secretBlock, input.timestamp),
  };
}
