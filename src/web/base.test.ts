import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The colour tokens of both themes against WCAG 2.2 AA, pair by pair, so a new shade that reads
// badly fails here before any screen shows it (the browser suite's axe check sees only the screens
// its tests reach, in the states they reach).

const css = fs.readFileSync(path.join(import.meta.dirname, 'base.css'), 'utf8');

function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
}

function rgb(hex: string): number[] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
}

function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = rgb(hex).map((c) =>
    c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** `fg` at `alpha` over `bg`, as `bg-primary/10` draws it. */
function over(fg: string, bg: string, alpha: number): string {
  const f = rgb(fg);
  const b = rgb(bg);
  return `#${f
    .map((c, i) =>
      Math.round((c * alpha + (b[i] ?? 0) * (1 - alpha)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

describe.each([
  ['light', ':root'],
  ['dark', '.dark'],
])('the %s theme', (_theme, selector) => {
  const t = tokens(selector);

  it('defines every token', () => {
    for (const name of [
      'bg',
      'fg',
      'muted',
      'muted-fg',
      'surface',
      'border',
      'ring',
      'primary',
      'primary-fg',
    ]) {
      expect(t[name], name).toMatch(/^#/);
    }
  });

  it.each(['fg', 'muted-fg', 'primary', 'danger'])(
    '%s reads at 4.5:1 on bg, surface, muted and its own tint',
    (text) => {
      const fg = t[text] ?? '';
      const grounds = ['bg', 'surface', 'muted', 'sidebar'].map((g) => t[g] ?? '');
      grounds.push(over(fg, t.surface ?? '', 0.1), over(fg, t.bg ?? '', 0.1));
      for (const ground of grounds)
        expect(contrast(fg, ground), `${text} on ${ground}`).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('text on the primary and danger fills reads at 4.5:1', () => {
    expect(contrast(t['primary-fg'] ?? '', t.primary ?? '')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t['danger-fg'] ?? '', t.danger ?? '')).toBeGreaterThanOrEqual(4.5);
  });

  it('the focus ring stands out at 3:1 from the page and from surfaces', () => {
    expect(contrast(t.ring ?? '', t.bg ?? '')).toBeGreaterThanOrEqual(3);
    expect(contrast(t.ring ?? '', t.surface ?? '')).toBeGreaterThanOrEqual(3);
  });
});
