import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountingCsv,
  decimal,
  type TAccountingDocument,
  tallyXml,
  voucherOf,
  ZAccountingExportQuery,
} from './accounting-export';

const invoice: TAccountingDocument = {
  kind: 'invoice',
  date: '2026-04-05',
  number: 'INV/26-27/0001',
  partyCode: 'AR-1',
  party: 'Asha Rao & Sons',
  subtotal: 150_000,
  tax: 27_000,
  taxes: { cgst: 13_500, sgst: 13_500, igst: 0 },
  roundOff: 0,
  total: 177_000,
};
const receipt: TAccountingDocument = {
  kind: 'receipt',
  date: '2026-04-20',
  number: 'RCPT-1',
  partyCode: 'AR-1',
  party: 'Asha Rao & Sons',
  amount: 162_000,
  tds: 15_000,
  bankCharges: 0,
  reference: 'UTR 991',
};
const sum = (v: ReturnType<typeof voucherOf>) => v.lines.reduce((a, l) => a + l.amount, 0);

describe('accounting export', () => {
  it('makes vouchers that balance: Dr party / Cr income and tax; Dr bank and TDS / Cr party', () => {
    const sales = voucherOf(invoice);
    expect(sales.lines).toEqual([
      { ledger: 'Asha Rao & Sons', amount: 177_000 },
      { ledger: 'Professional Fees', amount: -150_000 },
      { ledger: 'Output CGST', amount: -13_500 },
      { ledger: 'Output SGST', amount: -13_500 },
    ]);
    expect(sum(sales)).toBe(0);
    const credit = voucherOf({
      ...invoice,
      kind: 'credit_note',
      number: 'CN-1',
      roundOff: -1,
      total: 176_999,
    });
    expect(credit.type).toBe('Credit Note');
    expect(sum(credit)).toBe(0);
    const money = voucherOf(receipt);
    expect(money.lines).toEqual([
      { ledger: 'Bank Account', amount: 162_000 },
      { ledger: 'TDS Receivable', amount: 15_000 },
      { ledger: 'Asha Rao & Sons', amount: -177_000 },
    ]);
    expect(sum(voucherOf({ ...receipt, kind: 'refund' }))).toBe(0);
  });

  it('posts GST as charged: IGST outside the firm’s state, VAT to the other tax ledger, always balanced', () => {
    const outside = voucherOf({ ...invoice, taxes: { cgst: 0, sgst: 0, igst: 27_000 } });
    expect(outside.lines.map((l) => [l.ledger, l.amount])).toEqual([
      ['Asha Rao & Sons', 177_000],
      ['Professional Fees', -150_000],
      ['Output IGST', -27_000],
    ]);
    const vat = voucherOf({ ...invoice, kind: 'credit_note', taxes: { cgst: 0, sgst: 0, igst: 0 } });
    expect(vat.lines.map((l) => [l.ledger, l.amount])).toEqual([
      ['Asha Rao & Sons', -177_000],
      ['Professional Fees', 150_000],
      ['Output Tax', 27_000],
    ]);
    fc.assert(
      fc.property(
        fc.record({
          subtotal: fc.integer({ min: 0, max: 1e12 }),
          cgst: fc.integer({ min: 0, max: 1e10 }),
          igst: fc.integer({ min: 0, max: 1e10 }),
          other: fc.integer({ min: 0, max: 1e10 }),
          roundOff: fc.integer({ min: -99, max: 99 }),
          credit: fc.boolean(),
        }),
        (r) => {
          const tax = 2 * r.cgst + r.igst + r.other;
          const doc: TAccountingDocument = {
            ...invoice,
            kind: r.credit ? 'credit_note' : 'invoice',
            subtotal: r.subtotal,
            tax,
            taxes: { cgst: r.cgst, sgst: r.cgst, igst: r.igst },
            roundOff: r.roundOff,
            total: r.subtotal + tax + r.roundOff,
          };
          expect(sum(voucherOf(doc))).toBe(0);
        },
      ),
    );
  });

  it('writes Tally vouchers with Tally signs, escaped names and compact dates', () => {
    const text = tallyXml([voucherOf(invoice)], 2);
    expect(text).toContain('<VOUCHER VCHTYPE="Sales" ACTION="Create">');
    expect(text).toContain('<DATE>20260405</DATE>');
    expect(text).toContain('<PARTYLEDGERNAME>Asha Rao &amp; Sons</PARTYLEDGERNAME>');
    expect(text).toContain(
      '<LEDGERNAME>Asha Rao &amp; Sons</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>-1770.00</AMOUNT>',
    );
    expect(text).toContain(
      '<LEDGERNAME>Professional Fees</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>1500.00</AMOUNT>',
    );
  });

  it('writes a CSV journal, a row per ledger line, debits and credits apart', () => {
    const lines = accountingCsv([voucherOf(receipt)], 2)
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'voucher_type,date,voucher_number,party_code,party,ledger,debit,credit,reference',
      'Receipt,2026-04-20,RCPT-1,AR-1,Asha Rao & Sons,Bank Account,1620.00,,UTR 991',
      'Receipt,2026-04-20,RCPT-1,AR-1,Asha Rao & Sons,TDS Receivable,150.00,,UTR 991',
      'Receipt,2026-04-20,RCPT-1,AR-1,Asha Rao & Sons,Asha Rao & Sons,,1770.00,UTR 991',
    ]);
    expect(accountingCsv([voucherOf({ ...receipt, party: '=HYPERLINK("x")' })], 2)).toContain(
      `"'=HYPERLINK(""x"")"`,
    );
  });

  it('reads amounts and the period', () => {
    expect([decimal(150050, 2), decimal(-39, 2), decimal(7, 0)]).toEqual(['1500.50', '-0.39', '7']);
    expect(
      ZAccountingExportQuery.safeParse({ from: '2026-04-30', to: '2026-04-01' }).error?.issues[0]?.message,
    ).toBe('The period ends before it starts');
  });
});
