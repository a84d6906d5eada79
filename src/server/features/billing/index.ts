// The billing feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { billingContext, defaultBillingSettings, type TBillingContext, taxContextOf } from './context';
export { registerBillingRoutes } from './http';
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
export { billingRouter } from './router';
export { statementPdfModel } from './statements/pdf';
export { clientStatement, type TStatement, type TStatementEntry } from './statements/service';
