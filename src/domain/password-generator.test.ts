import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GENERATOR_OPTIONS,
  generatePassword,
  PASSWORD_SETS,
  type TRandomFill,
  ZGeneratorOptions,
} from './password-generator';

const all = { upper: true, lower: true, digits: true, symbols: true };
const none = { upper: false, lower: false, digits: false, symbols: false };

describe('generatePassword', () => {
  it('has the asked length and only characters of the chosen sets', () => {
    for (const length of [8, 20, 64, 128]) {
      const password = generatePassword({ length, ...none, lower: true, digits: true });
      expect(password).toHaveLength(length);
      expect(password).toMatch(/^[a-z0-9]+$/);
    }
  });

  it('always holds at least one character of every chosen set, even at the shortest length', () => {
    for (let i = 0; i < 200; i++) {
      const password = generatePassword({ length: 8, ...all });
      for (const set of Object.values(PASSWORD_SETS)) {
        expect(
          [...password].some((c) => set.includes(c)),
          `${password} lacks one of ${set}`,
        ).toBe(true);
      }
    }
  });

  it('uses one set alone when only one is chosen', () => {
    expect(generatePassword({ length: 30, ...none, digits: true })).toMatch(/^[0-9]{30}$/);
    expect(generatePassword({ length: 30, ...none, symbols: true })).toMatch(/^[^A-Za-z0-9]{30}$/);
  });

  it('draws from the Web Crypto API, rejecting biased draws', () => {
    // A fill that first returns a value above the unbiased limit for a 10-character set, then 3:
    // the first draw must be thrown away, so the digit is '3', not the biased remainder.
    const values = [2 ** 32 - 1, 3];
    const fill: TRandomFill = (array) => {
      array[0] = values.shift() ?? 0;
      return array;
    };
    // Length 8 with one set: the guaranteed digit is the first draw, then 7 more zeros.
    const password = generatePassword({ length: 8, ...none, digits: true }, fill);
    expect(password).toContain('3');
    expect(password.replaceAll('0', '')).toBe('3');
  });

  it('differs from one call to the next', () => {
    const seen = new Set(Array.from({ length: 50 }, () => generatePassword(DEFAULT_GENERATOR_OPTIONS)));
    expect(seen.size).toBe(50);
  });

  it('refuses options with no set or a length out of range, with a message', () => {
    expect(ZGeneratorOptions.safeParse({ length: 20, ...none }).error?.issues[0]?.message).toBe(
      'Choose at least one kind of character',
    );
    expect(ZGeneratorOptions.safeParse({ length: 7, ...all }).error?.issues[0]?.message).toBe(
      'Length must be at least 8',
    );
    expect(() => generatePassword({ length: 129, ...all })).toThrow();
  });
});
