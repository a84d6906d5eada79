import { z } from 'zod';
import { zString, zText } from './fields';

// The accounting export (issue 40): a period's invoices, credit notes and payments as Tally XML
// vouchers (Tally Prime / ERP 9 "Import Data" envelope) and as a CSV journal in a documented layout
// (README "Accounting export"). Pure: the server reads the rows, this writes them. Amounts are the
// integers in minor units the ledger keeps; every voucher balances (its debits equal its credits).

export const ACCOUNTING_EXPORT_PATH = '/api/billing/export/accounting';

const ZDay = zString().regex(/^\d{4}-\d{2}-\d{2}$/, 'Give dates as YYYY-MM-DD');
export const ZAccountingExportQuery = z
  .object({
    from: ZDay,
    to: ZDay,
    format: z.enum(['tally', 'csv'], { error: 'Choose tally or csv' }).default('csv'),
  })
  .refine((q) => q.from <= q.to, { message: 'The period ends before it starts', path: ['to'] });
export type TAccountingExportQuery = z.output<typeof ZAccountingExportQuery>;

/**
 * The ledger names a firm's books use; Tally matches them by name, so they must exist there. GST is
 * posted as the invoice charged it, CGST and SGST within the firm's state or IGST outside it, each to
 * its own output ledger (a return reads them apart); VAT or sales tax where the regime is not GST.
 */
export type TLedgerNames = {
  income: string;
  cgst: string;
  sgst: string;
  igst: string;
  otherTax: string;
  roundOff: string;
  bank: string;
  tds: string;
  bankCharges: string;
};
export const DEFAULT_LEDGERS: TLedgerNames = {
  income: 'Professional Fees',
  cgst: 'Output CGST',
  sgst: 'Output SGST',
  igst: 'Output IGST',
  otherTax: 'Output Tax',
  roundOff: 'Round Off',
  bank: 'Bank Account',
  tds: 'TDS Receivable',
  bankCharges: 'Bank Charges',
};

/** What each ledger is called on screen (the billing settings' accounting card). */
export const LEDGER_LABELS: Record<keyof TLedgerNames, string> = {
  income: 'Fees (income)',
  cgst: 'CGST collected',
  sgst: 'SGST collected',
  igst: 'IGST collected',
  otherTax: 'Other tax collected',
  roundOff: 'Round off',
  bank: 'Bank',
  tds: 'TDS deducted by clients',
  bankCharges: 'Bank charges',
};
const LEDGER_KEYS = Object.keys(DEFAULT_LEDGERS) as (keyof TLedgerNames)[];

/** A ledger name as saved, at most 100 characters; one left blank is the default. */
const ledgerName = (key: keyof TLedgerNames) =>
  zText({ max: 100, label: LEDGER_LABELS[key] }).transform((name) => name || DEFAULT_LEDGERS[key]);
export const ZLedgerNames = z.object({
  income: ledgerName('income'),
  cgst: ledgerName('cgst'),
  sgst: ledgerName('sgst'),
  igst: ledgerName('igst'),
  otherTax: ledgerName('otherTax'),
  roundOff: ledgerName('roundOff'),
  bank: ledgerName('bank'),
  tds: ledgerName('tds'),
  bankCharges: ledgerName('bankCharges'),
});

/** The names a firm's export uses: what it saved over the defaults, in one key order (for diffs). */
export function ledgersOf(saved: Partial<Record<string, unknown>> | null | undefined): TLedgerNames {
  return Object.fromEntries(
    LEDGER_KEYS.map((key) => {
      const name = saved?.[key];
      return [key, typeof name === 'string' && name ? name : DEFAULT_LEDGERS[key]];
    }),
  ) as TLedgerNames;
}

/** An invoice's GST by kind, the sums of its lines' (minor units). */
export type TTaxSplit = { cgst: number; sgst: number; igst: number };

export type TAccountingDocument =
  | {
      kind: 'invoice' | 'credit_note';
      date: string;
      number: string;
      partyCode: string;
      party: string;
      subtotal: number;
      /** The invoice's tax total, as it was charged. */
      tax: number;
      /** Its lines' GST by kind; the rest of `tax` (VAT, sales tax) goes to `otherTax`. */
      taxes: TTaxSplit;
      roundOff: number;
      total: number;
    }
  | {
      kind: 'receipt' | 'refund';
      date: string;
      number: string;
      partyCode: string;
      party: string;
      /** Into the bank (out of it, for a refund). */
      amount: number;
      tds: number;
      bankCharges: number;
      reference: string;
    };

/** One line of a voucher: a ledger debited (positive) or credited (negative), in minor units. */
export type TJournalLine = { ledger: string; amount: number };
export type TVoucher = {
  type: 'Sales' | 'Credit Note' | 'Receipt' | 'Payment';
  date: string;
  number: string;
  partyCode: string;
  party: string;
  reference: string;
  lines: TJournalLine[];
};

/** The double entry of a document: Dr the party for an invoice, Cr income and tax, and so on. */
export function voucherOf(doc: TAccountingDocument, ledgers: TLedgerNames = DEFAULT_LEDGERS): TVoucher {
  const base = { date: doc.date, number: doc.number, partyCode: doc.partyCode, party: doc.party };
  const nonZero = (lines: TJournalLine[]) => lines.filter((l) => l.amount !== 0);
  if (!isMoney(doc)) {
    const sign = doc.kind === 'invoice' ? 1 : -1;
    const { cgst, sgst, igst } = doc.taxes;
    return {
      ...base,
      type: doc.kind === 'invoice' ? 'Sales' : 'Credit Note',
      reference: '',
      lines: nonZero([
        { ledger: doc.party, amount: sign * doc.total },
        { ledger: ledgers.income, amount: -sign * doc.subtotal },
        { ledger: ledgers.cgst, amount: -sign * cgst },
        { ledger: ledgers.sgst, amount: -sign * sgst },
        { ledger: ledgers.igst, amount: -sign * igst },
        // The rest of the tax total, so the voucher balances on the invoice's own figures.
        { ledger: ledgers.otherTax, amount: -sign * (doc.tax - cgst - sgst - igst) },
        { ledger: ledgers.roundOff, amount: -sign * doc.roundOff },
      ]),
    };
  }
  return moneyVoucher(doc, base, ledgers);
}

type TMoneyDocument = Extract<TAccountingDocument, { kind: 'receipt' | 'refund' }>;
const isMoney = (doc: TAccountingDocument): doc is TMoneyDocument =>
  doc.kind === 'receipt' || doc.kind === 'refund';

function moneyVoucher(
  doc: TMoneyDocument,
  base: Pick<TVoucher, 'date' | 'number' | 'partyCode' | 'party'>,
  ledgers: TLedgerNames,
): TVoucher {
  const nonZero = (lines: TJournalLine[]) => lines.filter((l) => l.amount !== 0);
  const sign = doc.kind === 'receipt' ? 1 : -1;
  return {
    ...base,
    type: doc.kind === 'receipt' ? 'Receipt' : 'Payment',
    reference: doc.reference,
    lines: nonZero([
      { ledger: ledgers.bank, amount: sign * doc.amount },
      { ledger: ledgers.tds, amount: sign * doc.tds },
      { ledger: ledgers.bankCharges, amount: sign * doc.bankCharges },
      { ledger: doc.party, amount: -sign * (doc.amount + doc.tds + doc.bankCharges) },
    ]),
  };
}

/** Minor units as a plain decimal: 150050 with 2 digits is "1500.50"; -39 is "-0.39". */
export function decimal(minor: number, digits: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (!digits) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

const xml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/**
 * Tally's import envelope. Tally writes a debit as a negative AMOUNT with ISDEEMEDPOSITIVE Yes and
 * a credit as a positive one with No: the opposite of the journal's sign here.
 */
export function tallyXml(vouchers: readonly TVoucher[], digits: number): string {
  const body = vouchers
    .map((v) => {
      const entries = v.lines
        .map(
          (l) =>
            `<ALLLEDGERENTRIES.LIST><LEDGERNAME>${xml(l.ledger)}</LEDGERNAME><ISDEEMEDPOSITIVE>${l.amount > 0 ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE><AMOUNT>${decimal(-l.amount, digits)}</AMOUNT></ALLLEDGERENTRIES.LIST>`,
        )
        .join('\n');
      return `<TALLYMESSAGE xmlns:UDF="TallyUDF">
<VOUCHER VCHTYPE="${xml(v.type)}" ACTION="Create">
<DATE>${v.date.replaceAll('-', '')}</DATE>
<VOUCHERTYPENAME>${xml(v.type)}</VOUCHERTYPENAME>
<VOUCHERNUMBER>${xml(v.number)}</VOUCHERNUMBER>
<PARTYLEDGERNAME>${xml(v.party)}</PARTYLEDGERNAME>
${v.reference ? `<REFERENCE>${xml(v.reference)}</REFERENCE>\n` : ''}${entries}
</VOUCHER>
</TALLYMESSAGE>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ENVELOPE>
<HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER>
<BODY>
<IMPORTDATA>
<REQUESTDESC><REPORTNAME>Vouchers</REPORTNAME></REQUESTDESC>
<REQUESTDATA>
${body}
</REQUESTDATA>
</IMPORTDATA>
</BODY>
</ENVELOPE>
`;
}

export const ACCOUNTING_CSV_HEADER = [
  'voucher_type',
  'date',
  'voucher_number',
  'party_code',
  'party',
  'ledger',
  'debit',
  'credit',
  'reference',
] as const;

const csvCell = (value: string) => {
  // A cell a spreadsheet would run as a formula is quoted as text.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** One row per ledger line: a journal any accounting software imports (README "Accounting export"). */
export function accountingCsv(vouchers: readonly TVoucher[], digits: number): string {
  const rows = vouchers.flatMap((v) =>
    v.lines.map((l) =>
      [
        v.type,
        v.date,
        v.number,
        v.partyCode,
        v.party,
        l.ledger,
        l.amount > 0 ? decimal(l.amount, digits) : '',
        l.amount < 0 ? decimal(-l.amount, digits) : '',
        v.reference,
      ]
        .map(csvCell)
        .join(','),
    ),
  );
  return `${[ACCOUNTING_CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}
