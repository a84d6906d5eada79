import type {
  TInvoicePdfModel,
  TPdfFirm,
  TStatementPdfModel,
  TStatementPdfRow,
  TStatementRowType,
} from './models';

// Sample documents for the tests, the benchmark and a look at the layout: an Indian firm's GST
// invoice and a statement of any length, with sums that add up as the billing services make them.

export const SAMPLE_FIRM: TPdfFirm = {
  name: 'Sharma & Associates',
  legalName: 'Sharma & Associates LLP, Chartered Accountants',
  addressLines: ['4th Floor, Prestige Meridian, 29 MG Road', 'Bengaluru, Karnataka 560001, India'],
  taxIds: [
    { kind: 'GSTIN', value: '29ABCFS1234K1Z5' },
    { kind: 'PAN', value: 'ABCFS1234K' },
  ],
  email: 'accounts@sharma-associates.in',
  phone: '+91 80 4123 4567',
};

export const SAMPLE_CLIENT = {
  name: 'Kaveri Textiles Private Limited',
  code: 'KTPL-014',
  addressLines: ['Plot 17, KIADB Industrial Area, Peenya 2nd Stage', 'Bengaluru, Karnataka 560058'],
  taxIds: [
    { kind: 'GSTIN', value: '29AACCK4321M1Z2' },
    { kind: 'PAN', value: 'AACCK4321M' },
  ],
};

type TSampleLine = Omit<TInvoicePdfModel['lines'][number], 'amountMinor'> & { units: number };

const LINES: TSampleLine[] = [
  {
    description: 'Monthly bookkeeping and MIS, October 2026',
    taxCode: '998222',
    quantity: '1',
    units: 1,
    rateMinor: 1_500_000,
    discountMinor: 0,
    taxRatePercent: 18,
  },
  {
    description: 'GST returns GSTR-1 and GSTR-3B, October 2026',
    taxCode: '998231',
    quantity: '2',
    units: 2,
    rateMinor: 250_000,
    discountMinor: 50_000,
    taxRatePercent: 18,
  },
  {
    description: 'Advisory: restructuring of directors’ remuneration and the board note on it (partner time)',
    taxCode: '998231',
    quantity: '12.5 h',
    units: 12.5,
    rateMinor: 412_550,
    discountMinor: 0,
    taxRatePercent: 18,
  },
  {
    description: 'ROC filing fee paid on your behalf (at cost)',
    taxCode: null,
    quantity: '1',
    units: 1,
    rateMinor: 60_000,
    discountMinor: 0,
    taxRatePercent: null,
  },
];

/** A GST invoice within Karnataka (CGST + SGST), rounded to the rupee, part paid. */
export function sampleInvoice(overrides: Partial<TInvoicePdfModel> = {}): TInvoicePdfModel {
  const lines = LINES.map(({ units, ...line }) => ({
    ...line,
    amountMinor: Math.round(units * line.rateMinor) - line.discountMinor,
  }));
  const subtotalMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0);
  const taxable = lines.filter((l) => l.taxRatePercent).reduce((sum, l) => sum + l.amountMinor, 0);
  const half = Math.round(taxable * 0.09);
  const exact = subtotalMinor + 2 * half;
  const totalMinor = Math.round(exact / 100) * 100;
  const amountPaidMinor = 2_000_000;
  return {
    locale: 'en-IN',
    currency: 'INR',
    kind: 'invoice',
    taxInvoice: true,
    number: 'INV/2026-27/0042',
    status: 'partly_paid',
    issueDate: '2026-11-05',
    dueDate: '2026-11-20',
    firm: SAMPLE_FIRM,
    client: { ...SAMPLE_CLIENT, placeOfSupply: 'Karnataka (29)' },
    lines,
    taxes: [
      { label: 'CGST 9%', amountMinor: half },
      { label: 'SGST 9%', amountMinor: half },
    ],
    subtotalMinor,
    roundOffMinor: totalMinor - exact,
    totalMinor,
    amountPaidMinor,
    balanceDueMinor: totalMinor - amountPaidMinor,
    terms:
      'Payment due within 15 days of the invoice date. Interest at 18% a year is charged on amounts overdue.',
    notes: 'Tax is not payable under reverse charge. Thank you for your business.',
    bankDetails:
      'Sharma & Associates LLP\nHDFC Bank, MG Road branch, Bengaluru\nAccount no. 50200012345678\nIFSC HDFC0000123',
    upiVpa: 'sharmaassociates@hdfcbank',
    ...overrides,
  };
}

const TYPES: TStatementRowType[] = [
  'invoice',
  'payment',
  'tds',
  'invoice',
  'credit_note',
  'payment',
  'refund',
];

/** A statement of `count` rows from 1 Apr 2026, its running balance and aging as the service runs them. */
export function sampleStatement(count: number): TStatementPdfModel {
  const openingBalanceMinor = 1_250_000;
  let balance = openingBalanceMinor;
  const rows: TStatementPdfRow[] = [];
  const start = Date.UTC(2026, 3, 1);
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length] as TStatementRowType;
    const amount = 500_000 + ((i * 791_903) % 25_000_000);
    const debit = type === 'invoice' || type === 'refund' ? amount : 0;
    const credit = debit ? 0 : Math.round(amount / (type === 'tds' ? 10 : 2));
    balance += debit - credit;
    const serial = String(i + 1).padStart(4, '0');
    const reference =
      type === 'invoice'
        ? `INV/2026-27/${serial}`
        : type === 'credit_note'
          ? `CN/2026-27/${serial}`
          : type === 'tds'
            ? `TDS u/s 194J against INV/2026-27/${serial}`
            : `UTR HDFCN${52000000 + i} (NEFT)`;
    const date = new Date(start + Math.floor((i * 365) / Math.max(count, 1)) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    rows.push({ date, type, reference, debitMinor: debit, creditMinor: credit, balanceMinor: balance });
  }
  const part = Math.floor(balance / 5);
  return {
    locale: 'en-IN',
    currency: 'INR',
    firm: SAMPLE_FIRM,
    client: SAMPLE_CLIENT,
    from: '2026-04-01',
    to: '2027-03-31',
    openingBalanceMinor,
    rows,
    closingBalanceMinor: balance,
    aging: {
      currentMinor: balance - 4 * part,
      days1To30Minor: part,
      days31To60Minor: part,
      days61To90Minor: part,
      over90Minor: part,
    },
  };
}
