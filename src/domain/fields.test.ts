import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  hasForbiddenCharacter,
  INT4_MAX,
  NOT_ALLOWED_CHARACTER,
  personMessage,
  zCoerceDate,
  zCoerceInt,
  zDate,
  zInt,
  zString,
  zText,
} from './fields';

describe('text', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones', () => {
    expect(hasForbiddenCharacter('a\u0000b')).toBe(true);
    expect(hasForbiddenCharacter('\ud800')).toBe(true);
    expect(hasForbiddenCharacter('x\udc00')).toBe(true);
    expect(hasForbiddenCharacter('\udc00\ud800')).toBe(true);
    expect(hasForbiddenCharacter('😀 café')).toBe(false);
    const result = zString().trim().max(10).safeParse('a\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(NOT_ALLOWED_CHARACTER);
  });
  it('trims and caps with the field’s messages', () => {
    const name = zText({ min: 2, max: 5, label: 'Name' });
    expect(name.parse('  ab ')).toBe('ab');
    expect(name.safeParse('a').error?.issues[0]?.message).toBe('Name must be at least 2 characters');
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('Name must be at most 5 characters');
    expect(zText({ max: 5, trim: false }).parse(' a ')).toBe(' a ');
  });
});

describe('dates and numbers', () => {
  it('holds dates to 1900–2200', () => {
    expect(zDate().safeParse(new Date('2026-01-01')).success).toBe(true);
    expect(zDate().safeParse(new Date(8.64e15)).success).toBe(false);
    expect(zCoerceDate().safeParse('+275760-09-13T00:00:00.000Z').success).toBe(false);
    expect(zCoerceDate().safeParse('1899-12-31T00:00:00Z').success).toBe(false);
  });
  it('holds integers to int4', () => {
    expect(zInt().safeParse(INT4_MAX).success).toBe(true);
    expect(zInt().safeParse(INT4_MAX + 1).success).toBe(false);
    expect(zCoerceInt().safeParse('2147483648').success).toBe(false);
    expect(zInt().min(1, 'Page must be 1 or more').safeParse(0).error?.issues[0]?.message).toBe(
      'Page must be 1 or more',
    );
  });
});

/** Bare zod primitives outside the building blocks: text, numbers and dates with no bounds. */
const BARE = /\bz\s*\.\s*(?:string|number|date|int|bigint|coerce\s*\.\s*\w+)\s*\(/g;

describe('every domain schema is made of the building blocks', () => {
  it('has no bare z.string(), z.number(), z.date() or z.coerce outside fields.ts', () => {
    const dir = import.meta.dirname;
    const found: string[] = [];
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'fields.ts') continue;
      const source = readFileSync(join(dir, file), 'utf8');
      for (const match of source.matchAll(BARE)) {
        const line = source.slice(0, match.index).split('\n').length;
        found.push(`src/domain/${file}:${line}: ${match[0].replace(/\s+/g, '')}`);
      }
    }
    expect(found, `use the building blocks of src/domain/fields.ts:\n${found.join('\n')}`).toEqual([]);
  });
});

describe('zod’s own messages', () => {
  it('are replaced by words a person reads, where a schema has none of its own', () => {
    const schema = z.object({
      name: zString().min(1),
      count: zInt().max(5),
      kind: z.enum(['a', 'b']),
      email: z.email(),
    });
    const result = schema.safeParse({ count: 9, kind: 'c', email: 'nope' });
    const messages = result.success ? [] : result.error.issues.map((i) => i.message);
    expect(messages).toEqual([
      'This is required',
      'Enter at most 5',
      'Choose one of the options offered',
      'Enter a valid email address',
    ]);
    for (const m of messages) expect(m).not.toMatch(/Invalid|expected|received/);
  });

  it('never override a schema’s own message', () => {
    const result = zString().min(2, 'Enter two letters').safeParse('a');
    expect(result.success ? null : result.error.issues[0]?.message).toBe('Enter two letters');
    expect(personMessage({ code: 'too_small', origin: 'string', minimum: 3, input: 'a' } as never)).toBe(
      'Use at least 3 characters',
    );
  });
});
