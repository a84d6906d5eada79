import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIGURES, loadFont, shapedFont, type TFontWeight } from './fonts';

const LOCALES = ['en-IN', 'en-US', 'en-GB', 'de-DE', 'fr-FR', 'de-CH', 'ja-JP', 'ar-AE', 'en-ZA', 'hi-IN'];
const CURRENCIES = ['INR', 'USD', 'EUR', 'GBP', 'AUD', 'CAD', 'SGD', 'AED', 'NZD', 'ZAR', 'JPY', 'CHF'];

const figures = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
      fc.constantFrom(...LOCALES),
      fc.constantFrom(...CURRENCIES),
    )
    .map(([minor, locale, currency]) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency }).format(`${minor / 100}` as `${number}`),
    ),
  fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.constantFrom(...LOCALES))
    .map(([n, l]) => `${new Intl.NumberFormat(l).format(n)}%`),
  fc.stringMatching(/^[\d\s.,:;/\-–+%()#₹$£¥€]{1,24}$/),
);

function glyphsOf(weight: TFontWeight, font: 'quick' | 'shaped', text: string) {
  const run = (font === 'quick' ? loadFont(weight) : shapedFont(weight)).layout(text);
  return {
    ids: run.glyphs.map((g) => g.id),
    positions: run.positions.map((p) => [p.xAdvance, p.yAdvance, p.xOffset, p.yOffset]),
    width: run.advanceWidth,
  };
}

describe('the documents’ font', () => {
  it('has the rupee sign and the other currency symbols, in both weights', () => {
    for (const weight of ['regular', 'bold'] as const)
      for (const symbol of ['₹', '€', '£', '¥', '$', '−'])
        expect(
          loadFont(weight).hasGlyphForCodePoint(symbol.codePointAt(0) as number),
          `${weight} ${symbol}`,
        ).toBe(true);
  });

  it('takes amounts as Intl writes them the quick way', () => {
    for (const amount of [
      '₹1,23,456.50',
      '-$1,234.50',
      '1.234,56\u00a0€',
      '£0.05',
      '¥1,500',
      '18%',
      '12.5',
      '2026-11-05',
    ])
      expect(FIGURES.test(amount), amount).toBe(true);
    for (const text of ['AED 1,500.00', 'CHF 12.00', 'INV/2026-27/0001', 'Rupees'])
      expect(FIGURES.test(text), text).toBe(false);
  });

  it('lays out text the quick way exactly as OpenType shaping does', () => {
    fc.assert(
      fc.property(figures, fc.constantFrom<TFontWeight>('regular', 'bold'), (text, weight) => {
        expect(glyphsOf(weight, 'quick', text)).toEqual(glyphsOf(weight, 'shaped', text));
      }),
      { numRuns: 500 },
    );
  });

  it('still shapes text with letters (kerning in "AVATAR" is kept)', () => {
    expect(FIGURES.test('AVATAR')).toBe(false);
    const quick = glyphsOf('regular', 'quick', 'AVATAR');
    expect(quick).toEqual(glyphsOf('regular', 'shaped', 'AVATAR'));
    const unkerned = loadFont('regular')
      .glyphsForString('AVATAR')
      .reduce((sum, g) => sum + g.advanceWidth, 0);
    expect(quick.width).toBeLessThan(unkerned);
  });
});
