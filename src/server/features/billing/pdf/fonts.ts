import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font, type Glyph } from 'fontkit';

// The documents' typeface, from an npm package so every server prints the same glyphs whatever
// fonts its system has: Noto Sans, which has the rupee sign (U+20B9) and the other currency
// symbols Intl writes (€ £ ¥ and the Latin, Greek and Cyrillic letters of names and addresses).
// pdfkit embeds only the glyphs a document uses.

const FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const;

export type TFontWeight = keyof typeof FILES;

export function fontFile(weight: TFontWeight): string {
  return createRequire(import.meta.url).resolve(FILES[weight]);
}

/**
 * Text without letters: figures, amounts in any locale's format, percentages, dates in digits and
 * the spaces Intl puts between them (no-break, narrow no-break, thin).
 */
export const FIGURES = /^[\d\s.,:;/\\\-–—−+%()#'’*&@\u00a0\u2009\u202f\u20a0-\u20cf$£¥€]*$/;

type TRun = {
  glyphs: Glyph[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
};

/**
 * The font with a quick way through figures: OpenType shaping (ligatures, kerning, marks) took two
 * thirds of a long statement's time, mostly on amounts, and in Noto Sans it changes nothing there
 * (its figures are tabular and unkerned: fonts.test.ts holds that), so figures are mapped straight
 * from the character map. Text with letters is shaped as before.
 */
function withQuickFigures(font: Font): Font {
  return Object.create(font, {
    layout: {
      value(text: string, ...rest: unknown[]) {
        if (rest.some((r) => r !== undefined) || !FIGURES.test(text))
          return (font.layout as (...args: unknown[]) => unknown)(text, ...rest);
        const glyphs = font.glyphsForString(text);
        const positions = glyphs.map((g) => ({
          xAdvance: g.advanceWidth,
          yAdvance: 0,
          xOffset: 0,
          yOffset: 0,
        }));
        // pdfkit scales the positions in place and then reads the width, as fontkit's GlyphRun sums it.
        const run: TRun & { advanceWidth: number } = {
          glyphs,
          positions,
          get advanceWidth() {
            return positions.reduce((sum, p) => sum + p.xAdvance, 0);
          },
        };
        return run;
      },
    },
  }) as Font;
}

const parsed = new Map<TFontWeight, { font: Font; quick: Font }>();

function load(weight: TFontWeight) {
  let entry = parsed.get(weight);
  if (!entry) {
    const made = create(readFileSync(fontFile(weight)));
    if (!('layout' in made)) throw new Error(`${FILES[weight]} is a font collection, not a font`);
    entry = { font: made, quick: withQuickFigures(made) };
    parsed.set(weight, entry);
  }
  return entry;
}

/**
 * The parsed font, once per process and shared by every document: parsing Noto Sans's layout
 * tables took most of a small document's time. Each document still makes its own subset of it.
 */
export const loadFont = (weight: TFontWeight): Font => load(weight).quick;

/** The font as fontkit shapes every text, for the test that the quick way changes nothing. */
export const shapedFont = (weight: TFontWeight): Font => load(weight).font;
