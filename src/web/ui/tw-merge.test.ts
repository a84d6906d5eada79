import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { twMerge as fullMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { twMerge } from './tw-merge';

const WEB = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|\.gen\.ts$/.test(e.name) ? [file] : [];
  });
}

/** A class the library's full merge knows: it drops the second of two copies (unknown words stay twice). */
const isTailwindClass = (token: string) => fullMerge(`${token} ${token}`) === token;

/**
 * Every class written in src/web: the words of each string literal that reads as a class list (most
 * of its words are Tailwind classes; prose like "to-dos" in a sentence is not one).
 */
function classesInSource(): string[] {
  const classes = new Set<string>();
  for (const file of sourceFiles(WEB)) {
    for (const [, , text = ''] of readFileSync(file, 'utf8').matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
      const words = text.split(/\s+/).filter(Boolean);
      const known = words.filter(isTailwindClass);
      if (known.length * 2 > words.length) for (const w of known) classes.add(w);
    }
  }
  return [...classes];
}

/** A class's variants (`md:hover:` of `md:hover:px-2`), split at the colons outside brackets. */
const variantsOf = (c: string) => {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < c.length; i++) {
    if (c[i] === '[' || c[i] === '(') depth++;
    else if (c[i] === ']' || c[i] === ')') depth--;
    else if (c[i] === ':' && depth === 0) {
      parts.push(c.slice(start, i));
      start = i + 1;
    }
  }
  return parts;
};

/**
 * Classes can conflict only under the same variants, so pairs are made within those: sorted, which
 * groups together every pair the library compares (it sorts them too, bar a few order-sensitive ones).
 */
function byVariants(classes: string[]) {
  const groups = new Map<string, string[]>();
  for (const c of classes) {
    const key = variantsOf(c).sort().join(':');
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()];
}

describe('the app’s tailwind-merge', () => {
  const classes = classesInSource();

  it('finds the classes the screens are written with', () => {
    // A scan that found nothing would make the next test pass for nothing.
    expect(classes.length).toBeGreaterThan(500);
    expect(classes).toEqual(expect.arrayContaining(['px-4', 'text-muted-fg', 'w-full', 'md:grid-cols-2']));
  });

  it('merges every pair of the app’s classes as the library’s full config does', () => {
    const differences: string[] = [];
    for (const group of byVariants(classes)) {
      for (const a of group) {
        for (const b of group) {
          if (a === b) continue;
          const pair = `${a} ${b}`;
          const expected = fullMerge(pair);
          if (twMerge(pair) !== expected)
            differences.push(`"${pair}": "${twMerge(pair)}", full config "${expected}"`);
        }
      }
    }
    expect(differences).toEqual([]);
    // About 290,000 merges of each kind: 3 s alone, more beside the type check in CI.
  }, 60_000);

  it('lets a later class win over an earlier one of its group, and keeps the rest', () => {
    expect(twMerge('px-2 py-1 px-4')).toBe('py-1 px-4');
    expect(twMerge('w-full w-40')).toBe('w-40');
    expect(twMerge('text-base text-xl text-danger')).toBe('text-xl text-danger');
    expect(twMerge('p-4 px-2')).toBe('p-4 px-2');
    expect(twMerge('px-2 p-4')).toBe('p-4');
    expect(twMerge('hover:bg-muted bg-primary hover:bg-surface')).toBe('bg-primary hover:bg-surface');
    expect(twMerge('my-own-class text-sm')).toBe('my-own-class text-sm');
  });
});
