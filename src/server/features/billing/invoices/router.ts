import {
  ZClientBillingSet,
  ZClientMailingsInput,
  ZClientOptionsInput,
  ZClientRef,
  ZCreditNoteRaise,
  ZInvoiceIssueAndSend,
  ZInvoiceListInput,
  ZInvoiceSend,
} from '../../../../domain/billing/invoices';
import {
  ZInvoiceCreate,
  ZInvoiceIssue,
  ZInvoiceRef,
  ZInvoiceUpdate,
  ZInvoiceVoid,
} from '../../../../domain/billing/schemas';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { clientMailings, getClientBilling, setClientBilling } from './client-billing';
import { raiseCreditNote, voidDocument } from './credit-notes';
import { getInvoice } from './detail';
import { createInvoice, deleteInvoiceDraft, issueDraft, updateInvoice } from './drafts';
import { listInvoices } from './list';
import { clientOptions, serviceOptions } from './options';
import { issueAndSend, sendInvoice } from './send';

const view = permissionProcedure('billing.view');
const manage = permissionProcedure('billing.manage');

// Billing's invoices procedures (issue 35): drafts, issue, credit notes, void, send, and a client's
// billing contacts. Every one checks the client's visibility; the ledger (../ledger, ../issue) keeps
// the money rules.
export const invoicesRouter = router({
  list: view.input(ZInvoiceListInput).query(({ ctx, input }) => listInvoices(ctx.db, ctx.scope, input)),
  get: view.input(ZInvoiceRef).query(({ ctx, input }) => getInvoice(ctx.db, ctx.scope, input.invoiceId)),
  clientOptions: view
    .input(ZClientOptionsInput)
    .query(({ ctx, input }) => clientOptions(ctx.db, ctx.scope, input)),
  serviceOptions: manage.query(({ ctx }) => serviceOptions(ctx.db, ctx.scope)),
  create: manage
    .input(ZInvoiceCreate)
    .mutation(({ ctx, input }) => createInvoice(ctx.db, ctx.scope, input, ctx.meta)),
  update: manage
    .input(ZInvoiceUpdate)
    .mutation(({ ctx, input }) => updateInvoice(ctx.db, ctx.scope, input, ctx.meta)),
  issue: manage
    .input(ZInvoiceIssue)
    .mutation(({ ctx, input }) => issueDraft(ctx.db, ctx.scope, input, ctx.meta)),
  issueAndSend: manage
    .input(ZInvoiceIssueAndSend)
    .mutation(({ ctx, input }) => issueAndSend(ctx.db, ctx.scope, input, ctx.meta)),
  deleteDraft: manage
    .input(ZInvoiceRef)
    .mutation(({ ctx, input }) => deleteInvoiceDraft(ctx.db, ctx.scope, input.invoiceId, ctx.meta)),
  void: manage
    .input(ZInvoiceVoid)
    .mutation(({ ctx, input }) => voidDocument(ctx.db, ctx.scope, input, ctx.meta)),
  creditNote: manage
    .input(ZCreditNoteRaise)
    .mutation(({ ctx, input }) => raiseCreditNote(ctx.db, ctx.scope, input, ctx.meta)),
  send: manage
    .input(ZInvoiceSend)
    .mutation(({ ctx, input }) => sendInvoice(ctx.db, ctx.scope, input, ctx.meta)),
  clientBilling: view
    .input(ZClientRef)
    .query(({ ctx, input }) => getClientBilling(ctx.db, ctx.scope, input.clientId)),
  clientMailings: view
    .input(ZClientMailingsInput)
    .query(({ ctx, input }) => clientMailings(ctx.db, ctx.scope, input)),
  setClientBilling: permissionProcedure('billing.collect')
    .input(ZClientBillingSet)
    .mutation(({ ctx, input }) => setClientBilling(ctx.db, ctx.scope, input, ctx.meta)),
});
