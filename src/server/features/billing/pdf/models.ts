import type { TAgingBucket, TInvoiceKind, TInvoiceStatus } from '../../../../domain/billing/constants';
import type { TLogoContentType } from '../../../../domain/settings';

// What the invoice and statement PDFs print, and nothing they look up: the billing services build
// these from the same rows the screens show, and the renderers only lay them out. Amounts are whole
// minor units (paise, cents) of `currency`, formatted in `locale` inside the renderer; days are
// 'YYYY-MM-DD' strings, printed in the locale and never shifted by a time zone.

/** A tax identifier as the firm's profile and a client hold it: { kind: 'GSTIN', value: '29…' }. */
export type TPdfTaxId = { kind: string; value: string };

export type TPdfFirm = {
  name: string;
  legalName?: string | null;
  addressLines: string[];
  taxIds: TPdfTaxId[];
  email?: string | null;
  phone?: string | null;
  /** The firm's logo; PNG and JPEG are drawn, a WebP logo is left out (PDF has no WebP). */
  logo?: { bytes: Uint8Array; contentType: TLogoContentType } | null;
};

export type TPdfClient = {
  name: string;
  code?: string | null;
  addressLines: string[];
  taxIds: TPdfTaxId[];
};

/** How a document's money and days are written: "en-IN" and "INR" print ₹1,23,456.50 and 24 Nov 2026. */
export type TPdfLocale = { locale: string; currency: string };

export type TInvoicePdfLine = {
  description: string;
  /** SAC for services, HSN for goods; null where the firm's country has no such code. */
  taxCode?: string | null;
  /** As the screen writes it: "1", "12.5 h", "3 returns". */
  quantity: string;
  rateMinor: number;
  /** The discount taken off this line, in minor units; 0 for none. */
  discountMinor: number;
  /** The line's taxable amount: quantity × rate less the discount, rounded as the service rounds it. */
  amountMinor: number;
  /** 18 for 18%, 0 for zero-rated; null where the line carries no tax rate. */
  taxRatePercent?: number | null;
};

export type TInvoicePdfModel = TPdfLocale & {
  kind: TInvoiceKind;
  /** "Tax Invoice" (a GST-registered firm in India) or plain "Invoice". */
  taxInvoice: boolean;
  /** Null for a draft, which prints a DRAFT watermark. */
  number: string | null;
  /** A credit note's invoice: "against INV/2026-27/0012". */
  againstNumber?: string | null;
  /** The stored status: a draft prints DRAFT across the page, a void one VOID. */
  status: TInvoiceStatus;
  /** Why it was voided; printed with the VOID watermark. */
  voidReason?: string | null;
  issueDate: string | null;
  dueDate: string | null;
  firm: TPdfFirm;
  client: TPdfClient & {
    /** India's GST place of supply: "Karnataka (29)". */
    placeOfSupply?: string | null;
  };
  lines: TInvoicePdfLine[];
  /** One row a tax and rate, as the service summed them: { label: 'CGST 9%', amountMinor: 900 }. */
  taxes: { label: string; amountMinor: number }[];
  subtotalMinor: number;
  /** The explicit round-off where the firm's country rounds totals; 0 (not printed) otherwise. */
  roundOffMinor: number;
  totalMinor: number;
  amountPaidMinor: number;
  balanceDueMinor: number;
  terms?: string | null;
  notes?: string | null;
  /** Free text, one line each: "HDFC Bank, Koramangala\nA/c 50200012345678\nIFSC HDFC0000123". */
  bankDetails?: string | null;
  /** The firm's UPI ID; a QR code to pay is printed for an INR invoice with a balance due. */
  upiVpa?: string | null;
  /** The name the client's UPI app shows as payee; the firm's legal name when not given. */
  upiPayee?: string | null;
};

export const STATEMENT_ROW_TYPES = ['invoice', 'payment', 'credit_note', 'refund', 'tds'] as const;
export type TStatementRowType = (typeof STATEMENT_ROW_TYPES)[number];

export type TStatementPdfRow = {
  date: string;
  type: TStatementRowType;
  /** The invoice, credit note or payment's number, or the payment's reference. */
  reference: string;
  /** What the client owes more (an invoice, a refund paid out), in minor units; 0 for none. */
  debitMinor: number;
  /** What the client owes less (a payment, TDS, a credit note); 0 for none. */
  creditMinor: number;
  /** The balance after this row, as the service ran it: positive when the client owes the firm. */
  balanceMinor: number;
};

/** What is outstanding on the statement's last day, by days past due, in minor units. */
export type TStatementAging = {
  currentMinor: number;
  days1To30Minor: number;
  days31To60Minor: number;
  days61To90Minor: number;
  over90Minor: number;
};

/** The aging's fields by the ledger's buckets, for their labels. */
export const STATEMENT_AGING_FIELDS: Record<TAgingBucket, keyof TStatementAging> = {
  current: 'currentMinor',
  d1_30: 'days1To30Minor',
  d31_60: 'days31To60Minor',
  d61_90: 'days61To90Minor',
  d90_plus: 'over90Minor',
};

export type TStatementPdfModel = TPdfLocale & {
  firm: TPdfFirm;
  client: TPdfClient;
  from: string;
  to: string;
  openingBalanceMinor: number;
  rows: TStatementPdfRow[];
  closingBalanceMinor: number;
  aging: TStatementAging;
};
