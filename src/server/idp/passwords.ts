import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { invalidPassword } from './errors';

// scrypt (memory-hard) from node:crypto. Stored as `scrypt$N$r$p$salt$hash` (base64) so the cost
// can be raised later without breaking existing hashes.
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, params: typeof COST): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let standIn: Promise<string> | undefined;

/**
 * The same scrypt work as a real check, for a user name nobody has: the answer (a wrong password)
 * takes as long as for a real user, so timing does not tell who has an account.
 */
export async function checkStandInPassword(password: string): Promise<false> {
  standIn ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await standIn);
  return false;
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Cognito's default policy: 8+ characters with upper, lower, digit and symbol. */
export function checkPasswordPolicy(password: string): void {
  const fail = (why: string) => {
    throw invalidPassword(`Password did not conform with policy: ${why}`);
  };
  if (password.length < PASSWORD_MIN_LENGTH) fail('Password not long enough');
  if (password.length > PASSWORD_MAX_LENGTH) fail('Password is too long');
  if (/^\s|\s$/.test(password)) fail('Password must not begin or end with a space');
  if (!/[a-z]/.test(password)) fail('Password must have lowercase characters');
  if (!/[A-Z]/.test(password)) fail('Password must have uppercase characters');
  if (!/[0-9]/.test(password)) fail('Password must have numeric characters');
  if (!/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/.test(password)) fail('Password must have symbol characters');
}
