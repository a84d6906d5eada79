import { describe, expect, it } from 'vitest';
import { cellText } from './client-import';

describe('cellText (an XLSX cell as the text a CSV would hold)', () => {
  it('writes numbers in plain digits, never in exponent form', () => {
    expect(cellText(9876543210)).toBe('9876543210');
    expect(cellText(123456789012345)).toBe('123456789012345');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(0.0000001)).toBe('0.0000001');
    expect(cellText(-42)).toBe('-42');
    expect(cellText(Number.NaN)).toBe('');
    // Shown zero-padded in the sheet (postal codes, phones): the zeros stay.
    expect(cellText(1234, '00000')).toBe('01234');
    expect(cellText(1234, '0.00')).toBe('1234');
  });

  it('writes dates as YYYY-MM-DD, with the time only when there is one', () => {
    expect(cellText(new Date(Date.UTC(2024, 2, 5)))).toBe('2024-03-05');
    expect(cellText(new Date(Date.UTC(2024, 2, 5, 14, 30)))).toBe('2024-03-05 14:30');
    expect(cellText(new Date(Date.UTC(2024, 2, 5, 14, 30, 15)))).toBe('2024-03-05 14:30:15');
  });

  it('keeps strings and spells booleans and empty cells', () => {
    expect(cellText('  Acme Ltd ')).toBe('  Acme Ltd ');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(false)).toBe('FALSE');
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
  });

  it('reads rich text and hyperlinks as their text', () => {
    expect(cellText({ richText: [{ text: 'Acme ' }, { text: 'Ltd', font: { bold: true } }] })).toBe(
      'Acme Ltd',
    );
    expect(cellText({ text: 'ann@example.com', hyperlink: 'mailto:ann@example.com' })).toBe(
      'ann@example.com',
    );
    expect(cellText({ text: { richText: [{ text: 'Site' }] }, hyperlink: 'https://x.test' })).toBe('Site');
    expect(cellText({ text: '', hyperlink: 'mailto:bob@example.com' })).toBe('bob@example.com');
  });

  it('reads formulas as their result and errors as their code', () => {
    expect(cellText({ formula: 'A1*2', result: 9876543210 })).toBe('9876543210');
    expect(cellText({ sharedFormula: 'B2', result: 'x' })).toBe('x');
    expect(cellText({ formula: 'NOW()' })).toBe('');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
    expect(cellText({ formula: 'A1/0', result: { error: '#DIV/0!' } })).toBe('#DIV/0!');
  });
});
