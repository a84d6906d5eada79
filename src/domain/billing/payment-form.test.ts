import { describe, expect, it } from 'vitest';
import {
  creditApplyFormSchema,
  OVER_BALANCE,
  paymentFormSchema,
  refundFormSchema,
  type TPaymentFormInput,
} from './payment-form';

const CLIENT = '0190a7a0-0000-7000-8000-000000000001';
const INV1 = '0190a7a0-0000-7000-8000-0000000000a1';
const INV2 = '0190a7a0-0000-7000-8000-0000000000a2';

const form = (over: Partial<TPaymentFormInput> = {}): TPaymentFormInput => ({
  clientId: CLIENT,
  receivedOn: '2026-11-20',
  method: 'bank_transfer',
  reference: 'UTR 123',
  amount: '90,000',
  tdsAmount: '10000',
  tdsSection: '194j',
  tdsCertificateReceived: false,
  bankCharges: '',
  notes: '',
  allocations: [
    { invoiceId: INV1, balance: 6_000_000, amount: '60000' },
    { invoiceId: INV2, balance: 8_000_000, amount: '' },
  ],
  ...over,
});

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

describe('the record-payment form', () => {
  const schema = paymentFormSchema(2);

  it('reads typed amounts into minor units and leaves out the invoices given nothing', () => {
    expect(schema.parse(form())).toEqual({
      clientId: CLIENT,
      receivedOn: '2026-11-20',
      method: 'bank_transfer',
      reference: 'UTR 123',
      amount: 9_000_000,
      tdsAmount: 1_000_000,
      tdsSection: '194J',
      tdsCertificateReceived: false,
      bankCharges: 0,
      notes: '',
      allocations: [{ invoiceId: INV1, amount: 6_000_000 }],
    });
  });

  it('marks a mistyped amount on its own field', () => {
    expect(issues(schema.safeParse(form({ tdsAmount: '1O0' })))).toEqual([
      ['tdsAmount', 'Type an amount like 15000 or 15000.50'],
    ]);
    expect(issues(schema.safeParse(form({ amount: '12.345' })))).toEqual([
      ['amount', 'Use at most 2 decimal places'],
    ]);
  });

  it("refuses an allocation beyond the invoice's balance, on that invoice's row", () => {
    const rows = form().allocations.map((r, i) => (i === 1 ? { ...r, amount: '80000.01' } : r));
    expect(issues(schema.safeParse(form({ amount: '200000', allocations: rows })))).toEqual([
      ['allocations.1.amount', OVER_BALANCE],
    ]);
  });

  it("then checks what the procedure checks, with the procedure's words", () => {
    expect(issues(schema.safeParse(form({ amount: '', tdsAmount: '', allocations: [] })))).toEqual([
      ['amount', 'Enter the amount received'],
    ]);
    expect(issues(schema.safeParse(form({ amount: '40000', tdsAmount: '' })))).toEqual([
      ['allocations', 'More is allocated than was received with TDS and bank charges'],
    ]);
    expect(issues(schema.safeParse(form({ clientId: '' })))).toEqual([['clientId', 'Choose a client']]);
    expect(issues(schema.safeParse(form({ tdsSection: 'J194' })))).toEqual([
      ['tdsSection', 'A TDS section looks like 194J or 194C'],
    ]);
  });

  it('follows the currency: no decimals where it has none', () => {
    expect(paymentFormSchema(0).parse(form({ amount: '90000', allocations: [] })).amount).toBe(90_000);
    expect(issues(paymentFormSchema(0).safeParse(form({ amount: '90000.5', allocations: [] })))).toEqual([
      ['amount', 'This currency has no decimals'],
    ]);
  });
});

describe('the credit forms', () => {
  it('applies credit within the credit and the balances', () => {
    const schema = creditApplyFormSchema(2, 5_000_000);
    const rows = [
      { invoiceId: INV1, balance: 3_000_000, amount: '30000' },
      { invoiceId: INV2, balance: 8_000_000, amount: '20000' },
    ];
    expect(
      schema.parse({ clientId: CLIENT, appliedOn: '2026-11-20', allocations: rows }).allocations,
    ).toEqual([
      { invoiceId: INV1, amount: 3_000_000 },
      { invoiceId: INV2, amount: 2_000_000 },
    ]);
    const over = rows.map((r, i) => (i === 1 ? { ...r, amount: '20000.01' } : r));
    expect(
      issues(schema.safeParse({ clientId: CLIENT, appliedOn: '2026-11-20', allocations: over })),
    ).toEqual([['allocations', 'Apply no more than the credit']]);
    const none = rows.map((r) => ({ ...r, amount: '' }));
    expect(
      issues(schema.safeParse({ clientId: CLIENT, appliedOn: '2026-11-20', allocations: none })),
    ).toEqual([['allocations', 'Choose an invoice to apply the credit to']]);
  });

  it('refunds no more than the credit', () => {
    const schema = refundFormSchema(2, 1_000_000);
    const refund = {
      clientId: CLIENT,
      paidOn: '2026-11-20',
      method: 'upi' as const,
      reference: '',
      notes: '',
    };
    expect(schema.parse({ ...refund, amount: '10,000' }).amount).toBe(1_000_000);
    expect(issues(schema.safeParse({ ...refund, amount: '10000.01' }))).toEqual([
      ['amount', 'Refund no more than the credit'],
    ]);
    expect(issues(schema.safeParse({ ...refund, amount: '' }))).toEqual([
      ['amount', 'Refund must be more than zero'],
    ]);
  });
});
