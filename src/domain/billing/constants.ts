// Billing's vocabulary (issue 35), shared by the schema, the server and the screens.

export const TAX_REGIMES = ['none', 'gst', 'vat'] as const;
export type TTaxRegime = (typeof TAX_REGIMES)[number];
export const TAX_REGIME_LABELS: Record<TTaxRegime, string> = {
  none: 'No tax on invoices',
  gst: 'GST (India): CGST + SGST within the state, IGST outside it',
  vat: 'VAT or sales tax: one rate per line',
};

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type TInvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_STATUSES = ['draft', 'issued', 'sent', 'partly_paid', 'paid', 'void'] as const;
export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** What a list shows: the stored status, or Overdue when an open invoice is past its due date. */
export type TInvoiceDisplayStatus = TInvoiceStatus | 'overdue';
export const OPEN_STATUSES = ['issued', 'sent', 'partly_paid'] as const satisfies readonly TInvoiceStatus[];

export const INVOICE_STATUS_LABELS: Record<TInvoiceDisplayStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  sent: 'Sent',
  partly_paid: 'Partly paid',
  paid: 'Paid',
  void: 'Void',
  overdue: 'Overdue',
};

/** What a line bills: approved time, a fixed fee's period, a disbursement, or free text. */
export const LINE_KINDS = ['time', 'fee', 'disbursement', 'custom'] as const;
export type TLineKind = (typeof LINE_KINDS)[number];

export const DISBURSEMENT_KINDS = ['government_fee', 'courier', 'travel', 'stamp_duty', 'other'] as const;
export type TDisbursementKind = (typeof DISBURSEMENT_KINDS)[number];
export const DISBURSEMENT_KIND_LABELS: Record<TDisbursementKind, string> = {
  government_fee: 'Government fee',
  courier: 'Courier',
  travel: 'Travel',
  stamp_duty: 'Stamp duty',
  other: 'Other',
};

export const PAYMENT_KINDS = ['receipt', 'refund'] as const;
export type TPaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_METHODS = ['bank_transfer', 'upi', 'cheque', 'cash', 'card', 'other'] as const;
export type TPaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<TPaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  upi: 'UPI',
  cheque: 'Cheque',
  cash: 'Cash',
  card: 'Card',
  other: 'Other',
};
/** The method inside a sentence ("paid by UPI", "by bank transfer"): acronyms keep their capitals. */
export const PAYMENT_METHOD_IN_SENTENCE: Record<TPaymentMethod, string> = {
  bank_transfer: 'bank transfer',
  upi: 'UPI',
  cheque: 'cheque',
  cash: 'cash',
  card: 'card',
  other: 'another method',
};

/** How an engagement is billed. */
export const BILLING_MODES = ['fixed', 'hourly', 'none'] as const;
export type TBillingMode = (typeof BILLING_MODES)[number];
export const BILLING_MODE_LABELS: Record<TBillingMode, string> = {
  fixed: 'Fixed fee per period',
  hourly: 'Hourly (approved billable time)',
  none: 'Not billed',
};

/** When a fixed fee becomes due: as its period starts, when the period's project completes, or by hand. */
export const FEE_TRIGGERS = ['period_start', 'project_complete', 'manual'] as const;
export type TFeeTrigger = (typeof FEE_TRIGGERS)[number];
export const FEE_TRIGGER_LABELS: Record<TFeeTrigger, string> = {
  period_start: 'When the period starts',
  project_complete: "When the period's project is completed",
  manual: 'By hand, from work in progress',
};

export const RECURRING_MODES = ['draft', 'issue'] as const;
export type TRecurringMode = (typeof RECURRING_MODES)[number];

/**
 * The largest amount anywhere in billing, in minor units: 10^13 is ₹10,000 crore or $100 billion,
 * beyond any invoice a firm raises, and sums of many such stay exact below 2^53.
 */
export const MAX_AMOUNT = 10_000_000_000_000;
/** The largest quantity, in thousandths: a million hours or units. */
export const MAX_QUANTITY_MILLI = 1_000_000_000;
/** 100% in basis points. */
export const MAX_TAX_RATE_BP = 10_000;
export const MAX_LINES = 200;

export const AGING_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'd90_plus'] as const;
export type TAgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_BUCKET_LABELS: Record<TAgingBucket, string> = {
  current: 'Current',
  d1_30: '1-30 days',
  d31_60: '31-60 days',
  d61_90: '61-90 days',
  d90_plus: '90+ days',
};
