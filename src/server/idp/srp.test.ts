import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { E, errorResponse, IdpError } from './errors';
import {
  claimSignature,
  computeX,
  g,
  hashHex,
  k,
  makeVerifier,
  modPow,
  N,
  padHex,
  parseA,
  serverEphemeral,
  sessionKey,
  verifyClaim,
} from './srp';
import { clientProof } from './test-srp-client';

const big = (hex: string) => BigInt(`0x${hex}`);

describe('SRP as Cognito does it', () => {
  it('pads hex as two’s complement, minimal length', () => {
    expect(padHex(0x0fn)).toBe('0f');
    expect(padHex(0x7fn)).toBe('7f');
    expect(padHex(0x80n)).toBe('0080');
    expect(padHex(0x100n)).toBe('0100');
    expect(padHex(0xabcdefn)).toBe('00abcdef');
    expect(padHex(N).startsWith('00ffffffffffffffffc90fdaa2')).toBe(true);
    expect(padHex(N)).toHaveLength(770);
  });

  it('has the multiplier k of the Cognito group (known value)', () => {
    expect(k.toString(16)).toBe('538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6');
    expect(hashHex('00')).toBe(
      createHash('sha256')
        .update(Buffer.from([0]))
        .digest('hex'),
    );
  });

  it('derives x and the verifier from salt, pool name, user and password', () => {
    const salt = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    const x = computeX(salt, 'Practice', 'ada', 'Secret-1');
    const inner = createHash('sha256').update('Practiceada:Secret-1').digest('hex');
    expect(x).toBe(
      big(
        createHash('sha256')
          .update(Buffer.from(salt + inner, 'hex'))
          .digest('hex'),
      ),
    );
    const { salt: s2, verifier } = makeVerifier('Practice', 'ada', 'Secret-1');
    expect(big(verifier)).toBe(modPow(g, computeX(s2, 'Practice', 'ada', 'Secret-1'), N));
  });

  it('accepts the proof of the right password and refuses a wrong one or another timestamp', () => {
    const { salt, verifier } = makeVerifier('Practice', 'ada@example.test', 'Correct-Horse-1');
    const { b, B } = serverEphemeral(verifier);
    const secretBlock = randomBytes(64).toString('base64');
    const timestamp = 'Sun Nov 2 04:28:45 UTC 2026';
    const common = { poolName: 'Practice', userId: 'ada@example.test', salt, B, secretBlock, timestamp };
    const right = clientProof({ ...common, password: 'Correct-Horse-1' });
    const server = {
      B,
      b,
      verifier,
      poolName: 'Practice',
      userId: 'ada@example.test',
      secretBlock,
      timestamp,
    };
    expect(verifyClaim({ ...server, A: right.A, signature: right.signature })).toBe(true);
    const wrong = clientProof({ ...common, password: 'Correct-Horse-2' });
    expect(verifyClaim({ ...server, A: wrong.A, signature: wrong.signature })).toBe(false);
    expect(
      verifyClaim({
        ...server,
        A: right.A,
        signature: right.signature,
        timestamp: 'Sun Nov 2 04:28:46 UTC 2026',
      }),
    ).toBe(false);
    expect(verifyClaim({ ...server, A: right.A, signature: 'AAAA' })).toBe(false);
  });

  it('gives a fixed key and signature for fixed inputs (regression values)', () => {
    const verifier = padHex(modPow(g, computeX('01', 'Practice', 'u', 'p'), N));
    const { b, B } = serverEphemeral(verifier, '2a');
    expect(b).toBe('2a');
    const A = modPow(g, 3n, N);
    const key = sessionKey({ A, B: big(B), b: big(b), v: big(verifier) });
    expect(key).toHaveLength(16);
    const proof = clientProof({
      poolName: 'Practice',
      userId: 'u',
      password: 'p',
      salt: '01',
      B,
      secretBlock: 'AAEC',
      timestamp: 'T',
      a: 3n,
    });
    expect(proof.A).toBe(A.toString(16));
    expect(claimSignature(key as Buffer, 'Practice', 'u', 'AAEC', 'T')).toBe(proof.signature);
  });

  it('refuses A ≡ 0 (mod N) and junk', () => {
    expect(parseA('0')).toBeNull();
    expect(parseA(N.toString(16))).toBeNull();
    expect(parseA((2n * N).toString(16))).toBeNull();
    expect(parseA('xyz')).toBeNull();
    expect(parseA(42)).toBeNull();
    expect(parseA('f'.repeat(3000))).toBeNull();
    expect(parseA('02')).toBe(2n);
  });
});

describe('error mapping', () => {
  it('answers Cognito’s type and message with status 400', () => {
    expect(errorResponse(E.wrongPassword())).toEqual({
      status: 400,
      type: 'NotAuthorizedException',
      body: { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' },
    });
    expect(errorResponse(E.userNotFound()).body).toEqual({
      __type: 'UserNotFoundException',
      message: 'User does not exist.',
    });
    expect(errorResponse(E.deviceNotFound()).body).toEqual({
      __type: 'ResourceNotFoundException',
      message: 'Device does not exist.',
    });
    expect(errorResponse(E.accessRevoked()).body.message).toBe('Access Token has been revoked');
    expect(errorResponse(E.resetRequired()).body.__type).toBe('PasswordResetRequiredException');
    expect(errorResponse(new IdpError('X', 'y', 429)).status).toBe(429);
  });

  it('hides anything else behind a 500 InternalErrorException', () => {
    const r = errorResponse(new Error('database exploded: secret details'));
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ __type: 'InternalErrorException', message: 'An internal error occurred.' });
  });
});
