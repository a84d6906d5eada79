import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from './constants';
import {
  documentStatus,
  parseMoney,
  parseQuantity,
  parseTaxPercent,
  quantityText,
  taxPercentText,
  ZCreditNoteRaise,
  ZEmailList,
} from './invoices';

describe('what a person types into an invoice line', () => {
  it('reads amounts in major units into minor units, up to the largest amount billing holds', () => {
    expect(parseMoney('1500', 2)).toEqual({ amount: 150_000 });
    expect(parseMoney(' 1500,5 ', 2)).toEqual({ amount: 150_050 });
    expect(parseMoney('', 2)).toEqual({ amount: 0 });
    expect(parseMoney('1500', 0)).toEqual({ amount: 1500 });
    // A fixed fee may pass an hourly rate's ceiling.
    expect(parseMoney('2500000', 2)).toEqual({ amount: 250_000_000 });
    expect(parseMoney('1.234', 2)).toEqual({ error: 'Use at most 2 decimal places' });
    expect(parseMoney('12.5', 0)).toEqual({ error: 'This currency has no decimals' });
    expect(parseMoney('1,500.00', 2)).toMatchObject({ error: expect.any(String) });
    expect(parseMoney('-5', 2)).toMatchObject({ error: expect.any(String) });
    expect(parseMoney('99999999999999', 2)).toMatchObject({
      error: expect.stringMatching(/larger than any/),
    });
  });

  it('reads quantities in thousandths and tax rates in basis points, and writes them back', () => {
    expect(parseQuantity('2.5')).toEqual({ quantityMilli: 2500 });
    expect(parseQuantity('0,25')).toEqual({ quantityMilli: 250 });
    expect(parseQuantity('0')).toMatchObject({ error: expect.any(String) });
    expect(parseQuantity('1.2345')).toMatchObject({ error: expect.any(String) });
    expect(parseTaxPercent('18')).toEqual({ taxRateBp: 1800 });
    expect(parseTaxPercent('2.5')).toEqual({ taxRateBp: 250 });
    expect(parseTaxPercent('')).toEqual({ taxRateBp: 0 });
    expect(parseTaxPercent('101')).toMatchObject({ error: expect.any(String) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), (milli) => {
        expect(parseQuantity(quantityText(milli))).toEqual({ quantityMilli: milli });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (bp) => {
        expect(parseTaxPercent(taxPercentText(bp))).toEqual({ taxRateBp: bp });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT }), (minor) => {
        const text = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
        expect(parseMoney(text, 2)).toEqual({ amount: minor });
      }),
    );
  });
});

describe('the send and credit-note forms', () => {
  it('takes addresses separated by commas, spaces or lines, and names the one that is not', () => {
    expect(ZEmailList.parse('a@x.test, B@x.test\nc@x.test; a@x.test')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
    ]);
    expect(ZEmailList.safeParse('').error?.issues[0]?.message).toBe('Add at least one address');
    expect(ZEmailList.safeParse('a@x.test, nope').error?.issues[0]?.message).toBe(
      'nope is not an email address',
    );
  });

  it('wants lines or the whole invoice', () => {
    const base = { invoiceId: '01a22506-e5f5-77c5-a49b-731a5e3a48ed', reason: 'Cancelled' };
    expect(ZCreditNoteRaise.safeParse({ ...base, full: true }).success).toBe(true);
    expect(ZCreditNoteRaise.safeParse(base).success).toBe(false);
    expect(ZCreditNoteRaise.safeParse({ ...base, full: true, reason: ' ' }).success).toBe(false);
  });
});

describe('the badge', () => {
  it('shows Overdue for an open invoice past due, never for a credit note', () => {
    const past = { status: 'sent' as const, dueDate: '2026-01-01' };
    expect(documentStatus({ kind: 'invoice', ...past }, '2026-02-01')).toBe('overdue');
    expect(documentStatus({ kind: 'credit_note', ...past }, '2026-02-01')).toBe('sent');
    expect(documentStatus({ kind: 'invoice', status: 'paid', dueDate: '2026-01-01' }, '2026-02-01')).toBe(
      'paid',
    );
  });
});
