import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONE_SURROGATE, UPI_VPA_MESSAGE, upiAmount, upiPayUri, ZUpiVpa, ZUpiVpaOptional } from './upi';

const invoice = {
  vpa: 'sharma.associates@okhdfcbank',
  payeeName: 'Sharma & Associates',
  amountMinor: 123450,
  invoiceNumber: 'INV/2026-27/0001',
};

/**
 * Text with what can break a link: control characters, half a surrogate pair, the characters URLs
 * give a meaning to, and letters from any script. (fast-check's 'binary' unit says the same, but its
 * first use costs seconds.)
 */
const CHARACTERS = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\n',
    '\t',
    '\u007f',
    ' ',
    '\u00a0',
    '&',
    '=',
    '+',
    '%',
    '@',
    '#',
    '?',
    '/',
    '₹',
    '\ud83d',
    '\ude00',
    '😀',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const text = (maxLength: number) => fc.string({ unit: CHARACTERS, minLength: 1, maxLength });

/** What a UPI app reads from the link: the scheme, the action and each parameter, decoded. */
function read(uri: string) {
  const url = new URL(uri);
  return { scheme: url.protocol, action: url.host, params: Object.fromEntries(url.searchParams) };
}

describe('UPI payment link', () => {
  it('carries payee, amount in rupees with two decimals, INR, a note and the invoice number', () => {
    const uri = upiPayUri(invoice);
    expect(uri).toBe(
      'upi://pay?pa=sharma.associates@okhdfcbank&pn=Sharma%20%26%20Associates&am=1234.50&cu=INR&tn=Invoice%20INV%2F2026-27%2F0001&tr=INV%2F2026-27%2F0001',
    );
    expect(read(uri)).toEqual({
      scheme: 'upi:',
      action: 'pay',
      params: {
        pa: 'sharma.associates@okhdfcbank',
        pn: 'Sharma & Associates',
        am: '1234.50',
        cu: 'INR',
        tn: 'Invoice INV/2026-27/0001',
        tr: 'INV/2026-27/0001',
      },
    });
  });

  it('writes amounts with exactly two decimals', () => {
    expect(upiAmount(5)).toBe('0.05');
    expect(upiAmount(100)).toBe('1.00');
    expect(upiAmount(123456789)).toBe('1234567.89');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (paise) => {
        const am = upiAmount(paise);
        expect(am).toMatch(/^\d+\.\d{2}$/);
        expect(BigInt(am.replace('.', ''))).toBe(BigInt(paise));
      }),
    );
  });

  it('survives any payee name and invoice number: URLSearchParams reads back what was meant', () => {
    fc.assert(
      fc.property(text(60), text(30), (name, number) => {
        const payeeName = `A${name}`;
        const invoiceNumber = `N${number}`;
        const { params } = read(upiPayUri({ ...invoice, payeeName, invoiceNumber }));
        const tidy = (s: string) =>
          s
            .replace(LONE_SURROGATE, '\uFFFD')
            // biome-ignore lint/suspicious/noControlCharactersInRegex: the link drops them.
            .replace(/[\u0000-\u001f\u007f]/g, ' ')
            .replace(/\s+/g, ' ')
            .trim();
        expect(params.pn).toBe(Array.from(tidy(payeeName)).slice(0, 99).join(''));
        expect(params.tr).toBe(Array.from(tidy(invoiceNumber)).slice(0, 35).join(''));
        expect(params.tn?.startsWith('Invoice ')).toBe(true);
        expect(Object.keys(params)).toEqual(['pa', 'pn', 'am', 'cu', 'tn', 'tr']);
      }),
    );
  });

  it('keeps the reference within the spec’s 35 characters and the note within 50', () => {
    const { params } = read(upiPayUri({ ...invoice, invoiceNumber: 'X'.repeat(80) }));
    expect(params.tr).toHaveLength(35);
    expect(params.tn?.length).toBeLessThanOrEqual(50);
  });

  it('refuses a malformed UPI ID, an amount that is not whole positive paise, and blanks', () => {
    for (const vpa of [
      '',
      'sharma',
      '@okhdfcbank',
      'sharma@',
      'a@b',
      'sharma@ok hdfc',
      'sharma@@ok',
      'sh arma@ybl',
      'sharma@ybl\u0000',
      'sharma@1bank',
    ])
      expect(() => upiPayUri({ ...invoice, vpa }), vpa).toThrow(RangeError);
    for (const amountMinor of [0, -100, 10.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => upiPayUri({ ...invoice, amountMinor })).toThrow(RangeError);
    expect(() => upiPayUri({ ...invoice, payeeName: ' \n ' })).toThrow(RangeError);
    expect(() => upiPayUri({ ...invoice, invoiceNumber: '' })).toThrow(RangeError);
  });
});

describe('the UPI ID field', () => {
  it('takes an ID as typed, trimmed and in lower case', () => {
    expect(ZUpiVpa.parse('  Sharma.Associates@OKHDFCBANK ')).toBe('sharma.associates@okhdfcbank');
    for (const ok of ['98765-43210@ybl', 'firm_name@paytm', 'ab@upi', 'firm.name@axisbank2'])
      expect(ZUpiVpa.safeParse(ok).success, ok).toBe(true);
  });

  it('says what a UPI ID looks like when it is not one', () => {
    for (const bad of [
      'sharma',
      'sharma@',
      '@ybl',
      'sharma@ybl.com',
      'sha rma@ybl',
      'x@y',
      `${'a'.repeat(300)}@ybl`,
    ]) {
      const result = ZUpiVpa.safeParse(bad);
      expect(result.success, bad).toBe(false);
    }
    expect(ZUpiVpa.safeParse('sharma@').error?.issues[0]?.message).toBe(UPI_VPA_MESSAGE);
    expect(ZUpiVpa.safeParse('sharma@ybl\u0000').success).toBe(false);
  });

  it('on the settings form, blank is no UPI ID', () => {
    for (const blank of ['', '   ', null, undefined]) expect(ZUpiVpaOptional.parse(blank)).toBeNull();
    expect(ZUpiVpaOptional.parse(' Firm@YBL ')).toBe('firm@ybl');
    expect(ZUpiVpaOptional.safeParse('firm@').error?.issues[0]?.message).toBe(UPI_VPA_MESSAGE);
  });
});
