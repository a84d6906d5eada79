import { describe, expect, it } from 'vitest';
import { isValidLink } from './links';

describe('isValidLink', () => {
  it('accepts strings that parse as absolute URLs', () => {
    expect(isValidLink('https://incometax.gov.in/iec/foportal')).toBe(true);
    expect(isValidLink('http://localhost:3000/x?y=1')).toBe(true);
    expect(isValidLink('mailto:someone@example.com')).toBe(true);
  });
  it('refuses relative paths, bare hosts and non-strings', () => {
    expect(isValidLink('/clients/1')).toBe(false);
    expect(isValidLink('www.example.com')).toBe(false);
    expect(isValidLink('')).toBe(false);
    expect(isValidLink(null)).toBe(false);
    expect(isValidLink(42)).toBe(false);
  });
});
