import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_QUANTITY_MILLI, MAX_TAX_RATE_BP } from './constants';
import { fiscalYearLabel, formatInvoiceNumber } from './numbering';
import { agingBucket, invoiceDisplayStatus, settledStatus } from './status';
import { divRound, gstStateOf, invoiceTotals, lineTotals, type TTaxContext } from './totals';

const gstIntra: TTaxContext = {
  regime: 'gst',
  intraState: true,
  zeroRated: false,
  roundTotals: true,
  digits: 2,
};

const arbLine = fc
  .record({
    quantityMilli: fc.integer({ min: 1, max: MAX_QUANTITY_MILLI }),
    rate: fc.integer({ min: 0, max: 10_000_000_00 }),
    discountShare: fc.double({ min: 0, max: 1, noNaN: true }),
    taxRateBp: fc.integer({ min: 0, max: MAX_TAX_RATE_BP }),
  })
  .map(({ discountShare, ...l }) => {
    const gross = divRound(BigInt(l.quantityMilli) * BigInt(l.rate), 1000n);
    return { ...l, discount: Math.floor(gross * discountShare) };
  });
const arbContext = fc.record({
  regime: fc.constantFrom('none', 'gst', 'vat') as fc.Arbitrary<TTaxContext['regime']>,
  intraState: fc.boolean(),
  zeroRated: fc.boolean(),
  roundTotals: fc.boolean(),
  digits: fc.constantFrom(0, 2, 3),
});

describe('invoice totals', () => {
  it('an Indian invoice within the state: CGST and SGST halves, rounded to the rupee', () => {
    const t = invoiceTotals(
      [
        { quantityMilli: 2500, rate: 150_000, discount: 0, taxRateBp: 1800 }, // 2.5 h at ₹1,500
        { quantityMilli: 1000, rate: 99_999, discount: 9_999, taxRateBp: 1800 },
      ],
      gstIntra,
    );
    expect(t.lines.map((l) => l.amount)).toEqual([375_000, 90_000]);
    expect(t.taxes).toEqual([
      { label: 'CGST 9%', kind: 'CGST', rateBp: 900, amount: 41_850 },
      { label: 'SGST 9%', kind: 'SGST', rateBp: 900, amount: 41_850 },
    ]);
    expect(t.subtotal).toBe(465_000);
    expect(t.total).toBe(548_700);
    expect(t.roundOff).toBe(0);
  });

  it('outside the state is IGST; an export is zero-rated; round-off is explicit', () => {
    const line = { quantityMilli: 1000, rate: 100_033, discount: 0, taxRateBp: 1800 };
    const inter = invoiceTotals([line], { ...gstIntra, intraState: false });
    expect(inter.taxes).toEqual([{ label: 'IGST 18%', kind: 'IGST', rateBp: 1800, amount: 18_006 }]);
    expect(inter.total).toBe(118_000);
    expect(inter.roundOff).toBe(-39);
    expect(invoiceTotals([line], { ...gstIntra, zeroRated: true }).taxTotal).toBe(0);
    expect(lineTotals(line, { ...gstIntra, regime: 'vat' }).otherTax).toBe(18_006);
  });

  it('lines, taxes and round-off add up to the total, whatever the lines', () => {
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 30 }), arbContext, (lines, ctx) => {
        const t = invoiceTotals(lines, ctx);
        const lineSum = t.lines.reduce((s, l) => s + l.amount + l.cgst + l.sgst + l.igst + l.otherTax, 0);
        expect(lineSum + t.roundOff).toBe(t.total);
        expect(t.taxes.reduce((s, r) => s + r.amount, 0)).toBe(t.taxTotal);
        expect(t.subtotal + t.taxTotal + t.roundOff).toBe(t.total);
        expect(Math.abs(t.roundOff)).toBeLessThanOrEqual(ctx.roundTotals ? 10 ** ctx.digits / 2 : 0);
        for (const l of t.lines) expect(Number.isSafeInteger(l.amount) && l.amount >= 0).toBe(true);
      }),
    );
  });

  it('divides with half away from zero', () => {
    expect([divRound(5n, 10n), divRound(4n, 10n), divRound(-5n, 10n), divRound(15n, 10n)]).toEqual([
      1, 0, -1, 2,
    ]);
  });

  it("reads the state from a client's GSTIN", () => {
    expect(gstStateOf([{ kind: 'GSTIN', value: '27AAPFU0939F1ZV' }])).toBe('27');
    expect(gstStateOf([{ kind: 'PAN', value: 'AAPFU0939F' }])).toBeNull();
  });
});

describe('numbers and statuses', () => {
  it('labels fiscal years and pads the running number', () => {
    expect(fiscalYearLabel('2026-03-31', 4)).toBe('2025-26');
    expect(fiscalYearLabel('2026-04-01', 4)).toBe('2026-27');
    expect(fiscalYearLabel('2099-12-01', 4)).toBe('2099-00');
    expect(fiscalYearLabel('2026-06-01', 1)).toBe('2026');
    expect(formatInvoiceNumber('INV', '2026-27', 7, 4)).toBe('INV/2026-27/0007');
  });

  it('moves to partly paid and paid with the money, and back when it is taken back', () => {
    expect(settledStatus('sent', { total: 100, settled: 40, sent: true })).toBe('partly_paid');
    expect(settledStatus('partly_paid', { total: 100, settled: 100, sent: true })).toBe('paid');
    expect(settledStatus('paid', { total: 100, settled: 0, sent: true })).toBe('sent');
    expect(settledStatus('paid', { total: 100, settled: 0, sent: false })).toBe('issued');
    expect(settledStatus('void', { total: 100, settled: 0, sent: false })).toBe('void');
  });

  it('shows an open invoice past its due date as overdue', () => {
    expect(invoiceDisplayStatus({ status: 'sent', dueDate: '2026-11-01' }, '2026-11-02')).toBe('overdue');
    expect(invoiceDisplayStatus({ status: 'paid', dueDate: '2026-11-01' }, '2026-11-02')).toBe('paid');
    expect(invoiceDisplayStatus({ status: 'sent', dueDate: '2026-11-02' }, '2026-11-02')).toBe('sent');
  });

  it('ages by days past due', () => {
    expect(
      ['2026-11-29', '2026-11-28', '2026-10-30', '2026-10-29', '2026-08-31', '2026-08-30'].map((d) =>
        agingBucket(d, '2026-11-29'),
      ),
    ).toEqual(['current', 'd1_30', 'd1_30', 'd31_60', 'd61_90', 'd90_plus']);
  });
});
