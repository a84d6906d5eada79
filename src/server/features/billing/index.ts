// The billing feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { billingContext, defaultBillingSettings, type TBillingContext, taxContextOf } from './context';
export { registerBillingRoutes } from './http';
export { visibleInvoice } from './invoices/access';
export { registerInvoiceExport } from './invoices/export-http';
export { invoiceListColumns, invoiceListWhere, invoiceOrder, owedWhere } from './invoices/list';
export { registerInvoicePdfRoute } from './invoices/pdf-http';
export { invoiceFileName, invoicePdfModel } from './invoices/pdf-model';
export { INVOICE_MAIL, registerInvoiceMailJob } from './invoices/send-job';
export { deleteDraft, issueInvoice, voidInvoice } from './issue';
export {
  ALREADY_BILLED,
  appendLines,
  createDraft,
  invoiceForUpdate,
  PERIOD_BILLED,
  recomputeInvoice,
  refreshBalances,
  replaceDraftLines,
  requireDraft,
  type TDraftLine,
  type TInvoiceRow,
} from './ledger';
export {
  PAYMENT_REMINDERS,
  registerPaymentReminderJobs,
  sendPaymentReminders,
} from './payment-reminders/job';
export { clientCredit } from './payments/credit';
export { fontFile, renderStatementPdf } from './pdf';
export { agingReport } from './receivables/service';
export { billingRouter } from './router';
export { statementPdfModel } from './statements/pdf';
export { clientStatement, type TStatement, type TStatementEntry } from './statements/service';
export { clientWip, feeDescription } from './wip/read';
export {
  billEngagementFees,
  billProjectFee,
  billProjectPeriod,
  billRecurringFees,
  raiseRetainerInvoice,
} from './wip/recurring';
export { dueFeePeriods, type TFeePeriodRow, unbilledTime } from './wip/sql';
