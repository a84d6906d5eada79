import { z } from 'zod';
import { zNumber } from './fields';

// A password generator for the vault's form. Pure: randomness comes from the Web Crypto API
// (browser and Node alike), never Math.random, and every draw is unbiased (rejection sampling).

export const PASSWORD_SETS = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digits: '0123456789',
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~',
} as const;
export type TPasswordSet = keyof typeof PASSWORD_SETS;
export const PASSWORD_SET_LABELS: Record<TPasswordSet, string> = {
  upper: 'Upper case (A-Z)',
  lower: 'Lower case (a-z)',
  digits: 'Digits (0-9)',
  symbols: 'Symbols (!#$…)',
};

export const GENERATOR_MIN_LENGTH = 8;
export const GENERATOR_MAX_LENGTH = 128;

export const ZGeneratorOptions = z
  .object({
    length: zNumber()
      .int('Length must be a whole number')
      .min(GENERATOR_MIN_LENGTH, `Length must be at least ${GENERATOR_MIN_LENGTH}`)
      .max(GENERATOR_MAX_LENGTH, `Length must be at most ${GENERATOR_MAX_LENGTH}`),
    upper: z.boolean(),
    lower: z.boolean(),
    digits: z.boolean(),
    symbols: z.boolean(),
  })
  .refine((o) => o.upper || o.lower || o.digits || o.symbols, {
    message: 'Choose at least one kind of character',
    path: ['upper'],
  });
export type TGeneratorOptions = z.infer<typeof ZGeneratorOptions>;

export const DEFAULT_GENERATOR_OPTIONS: TGeneratorOptions = {
  length: 20,
  upper: true,
  lower: true,
  digits: true,
  symbols: true,
};

export type TRandomFill = (array: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer>;
const cryptoFill: TRandomFill = (array) => globalThis.crypto.getRandomValues(array);

/** A uniform integer in [0, n): draws above the largest multiple of n are thrown away. */
function randomBelow(n: number, fill: TRandomFill): number {
  const limit = 2 ** 32 - (2 ** 32 % n);
  const buffer = new Uint32Array(1);
  for (;;) {
    const value = fill(buffer)[0] ?? 0;
    if (value < limit) return value % n;
  }
}

/**
 * A password of the given length drawn from the chosen sets, with at least one character of each
 * chosen set (sites that demand "a digit and a symbol" accept it), in a uniformly shuffled order.
 */
export function generatePassword(options: TGeneratorOptions, fill: TRandomFill = cryptoFill): string {
  const parsed = ZGeneratorOptions.parse(options);
  const sets = (Object.keys(PASSWORD_SETS) as TPasswordSet[])
    .filter((key) => parsed[key])
    .map((key) => PASSWORD_SETS[key]);
  if (parsed.length < sets.length) throw new Error('The length is shorter than the number of chosen sets');
  const pool = sets.join('');
  const pick = (from: string) => from[randomBelow(from.length, fill)] ?? '';
  const chars = sets.map(pick);
  while (chars.length < parsed.length) chars.push(pick(pool));
  // Fisher–Yates, so the guaranteed characters are not always at the front.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1, fill);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}
