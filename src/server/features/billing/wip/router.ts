import {
  ZDisbursementCreate,
  ZDisbursementRef,
  ZDisbursementUpdate,
  ZWipAddToDraft,
  ZWipClientInput,
  ZWipCreateInvoice,
  ZWipListInput,
} from '../../../../domain/billing/wip';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { createDisbursement, deleteDisbursement, receiptFolder, updateDisbursement } from './disbursements';
import { addWipToDraft, createInvoiceFromWip } from './invoice';
import { clientWip, wipList } from './read';

// billing.wip.*: work in progress, disbursements, and WIP onto an invoice (issue 35).
export const wipRouter = router({
  list: permissionProcedure('billing.view')
    .input(ZWipListInput)
    .query(({ ctx, input }) => wipList(ctx.db, ctx.scope, input)),
  client: permissionProcedure('billing.view')
    .input(ZWipClientInput)
    .query(({ ctx, input }) => clientWip(ctx.db, ctx.scope, input.clientId)),
  createInvoice: permissionProcedure('billing.manage')
    .input(ZWipCreateInvoice)
    .mutation(({ ctx, input }) => createInvoiceFromWip(ctx.db, ctx.scope, input, ctx.meta)),
  addToDraft: permissionProcedure('billing.manage')
    .input(ZWipAddToDraft)
    .mutation(({ ctx, input }) => addWipToDraft(ctx.db, ctx.scope, input, ctx.meta)),
  disbursements: router({
    create: permissionProcedure('billing.manage')
      .input(ZDisbursementCreate)
      .mutation(({ ctx, input }) => createDisbursement(ctx.db, ctx.scope, input, ctx.meta)),
    update: permissionProcedure('billing.manage')
      .input(ZDisbursementUpdate)
      .mutation(({ ctx, input }) => updateDisbursement(ctx.db, ctx.scope, input, ctx.meta)),
    delete: permissionProcedure('billing.manage')
      .input(ZDisbursementRef)
      .mutation(({ ctx, input }) => deleteDisbursement(ctx.db, ctx.scope, input.disbursementId, ctx.meta)),
    /** The client's Receipts folder for the documents upload route (made the first time). */
    receiptFolder: permissionProcedure('billing.manage')
      .input(ZWipClientInput)
      .mutation(({ ctx, input }) => receiptFolder(ctx.db, ctx.scope, input.clientId, ctx.meta)),
  }),
});
