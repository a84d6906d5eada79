import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInWords, currencyDigits, MAX_WORDS_MINOR } from './words';

const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALE: Record<string, number> = {
  hundred: 100,
  thousand: 1e3,
  lakh: 1e5,
  million: 1e6,
  crore: 1e7,
  billion: 1e9,
  trillion: 1e12,
  quadrillion: 1e15,
};

/**
 * Words back to a number, independently of how they were made: a scale word multiplies what was
 * read since the last larger scale ("Ten Lakh Crore" is 10 × 10^5 × 10^7).
 */
function readNumber(words: string): number {
  let total = 0;
  // Each pending group is [value, the scale that closed it]; a larger scale swallows smaller ones.
  const groups: [number, number][] = [];
  let current = 0;
  for (const word of words.toLowerCase().split(/[ -]/)) {
    if (word in SMALL) current += SMALL[word] as number;
    else if (word === 'hundred') current *= 100;
    else if (word in SCALE) {
      const scale = SCALE[word] as number;
      let value = current;
      while (groups.length && (groups[groups.length - 1] as [number, number])[1] < scale)
        value += (groups.pop() as [number, number])[0];
      groups.push([value * scale, scale]);
      current = 0;
    } else throw new Error(`not a number word: ${word}`);
  }
  for (const [value] of groups) total += value;
  return total + current;
}

/** An amount in words of a named currency back to minor units. */
function readAmount(text: string, unit: RegExp, minorUnit: RegExp | null, digits: number): number {
  const body = text.replace(/ Only$/, '');
  const [majorText, minorText] = body.split(' and ');
  let major = 0;
  let minor = 0;
  const majorOnly = (majorText as string).replace(unit, '').trim();
  if (minorUnit?.test(majorText as string) && minorText === undefined) {
    minor = readNumber((majorText as string).replace(minorUnit, '').trim());
  } else {
    major = readNumber(majorOnly);
    if (minorText !== undefined && minorUnit) minor = readNumber(minorText.replace(minorUnit, '').trim());
  }
  return major * 10 ** digits + minor;
}

const amount = fc.integer({ min: 0, max: MAX_WORDS_MINOR });
const CODES = [
  'INR',
  'USD',
  'EUR',
  'GBP',
  'AUD',
  'CAD',
  'SGD',
  'AED',
  'NZD',
  'ZAR',
  'JPY',
  'CHF',
  'KWD',
  'XYZ',
];
const LOCALES = ['en-IN', 'en-US', 'en-GB', 'hi', 'en-AE', 'ja-JP', 'de-CH', 'not a locale', ''];

describe('amount in words, by hand', () => {
  it('writes rupees in lakh and crore, unit first, with paise', () => {
    expect(amountInWords(12345650, 'INR', 'en-IN')).toBe(
      'Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Fifty Paise Only',
    );
    expect(amountInWords(1_23_45_67_800, 'INR', 'en-IN')).toBe(
      'Rupees One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight Only',
    );
    expect(amountInWords(MAX_WORDS_MINOR, 'INR', 'en-IN')).toBe('Rupees Ten Lakh Crore Only');
    expect(amountInWords(100, 'INR', 'en-IN')).toBe('Rupees One Only');
    expect(amountInWords(1, 'INR', 'en-IN')).toBe('One Paisa Only');
    expect(amountInWords(10_500, 'INR', 'en-IN')).toBe('Rupees One Hundred Five Only');
    expect(amountInWords(0, 'INR', 'en-IN')).toBe('Rupees Zero Only');
  });

  it('uses the international scale and the currency’s own names elsewhere', () => {
    expect(amountInWords(123456789, 'USD', 'en-US')).toBe(
      'One Million Two Hundred Thirty-Four Thousand Five Hundred Sixty-Seven Dollars and Eighty-Nine Cents Only',
    );
    expect(amountInWords(100, 'USD', 'en-US')).toBe('One Dollar Only');
    expect(amountInWords(101, 'GBP', 'en-GB')).toBe('One Pound and One Penny Only');
    expect(amountInWords(99, 'GBP', 'en-GB')).toBe('Ninety-Nine Pence Only');
    expect(amountInWords(250075, 'AED', 'en-AE')).toBe(
      'Two Thousand Five Hundred Dirhams and Seventy-Five Fils Only',
    );
    expect(amountInWords(100000000, 'ZAR', 'en-ZA')).toBe('One Million Rand Only');
    expect(amountInWords(1_000_000_00, 'EUR', 'de-DE')).toBe('One Million Euros Only');
    expect(amountInWords(0, 'AUD', 'en-AU')).toBe('Zero Dollars Only');
  });

  it('says which dollar when it is not the money of the firm’s land, and counts in lakh in India', () => {
    expect(amountInWords(500000, 'CAD', 'en-US')).toBe('Five Thousand Canadian Dollars Only');
    expect(amountInWords(123456789, 'USD', 'en-IN')).toBe(
      'US Dollars Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven and Eighty-Nine Cents Only',
    );
    expect(amountInWords(10_000_000, 'INR', 'en-US')).toBe('Indian Rupees One Lakh Only');
    expect(amountInWords(120000, 'SGD', 'en-SG')).toBe('One Thousand Two Hundred Dollars Only');
    expect(amountInWords(120000, 'NZD', 'en-AU')).toBe('One Thousand Two Hundred New Zealand Dollars Only');
  });

  it('has no minor unit where the currency has none, and a cheque’s fraction for unnamed ones', () => {
    expect(currencyDigits('JPY')).toBe(0);
    expect(amountInWords(150000, 'JPY', 'ja-JP')).toBe('One Hundred Fifty Thousand Yen Only');
    expect(amountInWords(MAX_WORDS_MINOR, 'JPY', 'en-US')).toBe('One Quadrillion Japanese Yen Only');
    expect(amountInWords(123456, 'CHF', 'de-CH')).toBe(
      'One Thousand Two Hundred Thirty-Four and 56/100 CHF Only',
    );
    expect(amountInWords(105, 'chf', 'en-CH')).toBe('One and 05/100 CHF Only');
    expect(amountInWords(1234567, 'KWD', 'en-KW')).toBe(
      'One Thousand Two Hundred Thirty-Four and 567/1000 KWD Only',
    );
    expect(amountInWords(100000, 'CHF', 'en-IN')).toBe('One Thousand CHF Only');
  });

  it('writes a negative amount with Minus, and refuses what is not an amount', () => {
    expect(amountInWords(-5000, 'EUR', 'en-IE')).toBe('Minus Fifty Euros Only');
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_WORDS_MINOR + 1, -MAX_WORDS_MINOR - 1])
      expect(() => amountInWords(bad, 'INR', 'en-IN')).toThrow(RangeError);
    for (const bad of ['', 'RUPEES', 'I\u0000R', '12$'])
      expect(() => amountInWords(100, bad, 'en-IN')).toThrow(RangeError);
  });
});

describe('amount in words, for any amount', () => {
  it('is the same words every time, and never says undefined, NaN or two spaces', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...CODES), fc.constantFrom(...LOCALES), (minor, code, locale) => {
        const words = amountInWords(minor, code, locale);
        expect(amountInWords(minor, code, locale)).toBe(words);
        expect(words).not.toMatch(/undefined|NaN|null| {2}|^ | $|--/);
        expect(words).toMatch(/^[A-Z].* Only$/);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back to the amount it was made from (rupees, in lakh and crore)', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        const words = amountInWords(minor, 'INR', 'en-IN').replace(/^Rupees /, '');
        expect(readAmount(words, /$^/, / Paisa$| Paise$/, 2)).toBe(minor);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back to the amount it was made from (dollars, on the international scale)', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        const words = amountInWords(minor, 'USD', 'en-US');
        expect(readAmount(words, / Dollars?$/, / Cents?$/, 2)).toBe(minor);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back for a currency of no minor unit', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        expect(readAmount(amountInWords(minor, 'JPY', 'ja-JP'), / Yen$/, null, 0)).toBe(minor);
      }),
    );
  });

  it('counts in lakh exactly when the region is India or the money is rupees', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000_000, max: MAX_WORDS_MINOR }),
        fc.constantFrom(...CODES),
        (minor, code) => {
          const indian = /Lakh|Crore/;
          const inIndia = amountInWords(minor, code, 'en-IN');
          const elsewhere = amountInWords(minor, code, 'en-GB');
          // 10^7 minor is at least a lakh of a two-digit currency: a lakh or crore word appears in India.
          if (currencyDigits(code) <= 2) expect(inIndia).toMatch(indian);
          // Rupees are counted in lakh wherever the firm is; other money only in India.
          if (code === 'INR') expect(elsewhere).toMatch(indian);
          else expect(elsewhere).not.toMatch(indian);
        },
      ),
    );
  });
});
