import type { TPersonSession } from './session';

// How the firm bills, set by its owner on the billing settings before its first month of billing in
// Practice: GST from Maharashtra (CGST and SGST for its clients in the state), invoices numbered
// INV/2025-26/0001 by fiscal year, due in fifteen days, paid to its bank account or its UPI ID, the
// fixed fees' invoices made as drafts for the admin to check, and reminders three days before the
// due date, on it, and every week after.

export const DEMO_DUE_DAYS = 15;

export async function setUpBilling(owner: TPersonSession, firmName: string) {
  await owner.api.billing.settings.update({
    taxRegime: 'gst',
    gstState: '27',
    defaultTaxRateBp: 1800,
    roundTotals: true,
    invoicePrefix: 'INV',
    creditNotePrefix: 'CN',
    seqDigits: 4,
    dueDays: DEMO_DUE_DAYS,
    terms:
      'Payment within 15 days of the invoice. Please deduct TDS under section 194J where it applies and send us Form 16A each quarter.',
    bankDetails: `${firmName} LLP\nHDFC Bank, Nariman Point branch\nAccount 50200012345678\nIFSC HDFC0000060`,
    upiVpa: 'sharmaassociates@hdfcbank',
    upiPayee: firmName,
    recurringMode: 'draft',
    remindersEnabled: true,
    remindBeforeDays: 3,
    remindOnDue: true,
    remindEveryDays: 7,
  });
}
