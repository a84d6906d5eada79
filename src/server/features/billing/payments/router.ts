import {
  ZAllocationReverse,
  ZClientRef,
  ZClientSearch,
  ZCreditApply,
  ZPaymentCreate,
  ZPaymentListInput,
  ZPaymentRef,
  ZPaymentReverse,
  ZPaymentUpdate,
  ZRefundCreate,
} from '../../../../domain/billing/payments';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { clientAccount, clientOptions, listPayments, paymentDetail } from './list';
import { applyCredit, recordPayment, refundCredit } from './record';
import { reverseAllocation, reversePayment, updatePayment } from './reverse';

// billing.payments.*: money in and out (issue 35). Seeing needs billing.view; every change needs
// billing.collect.
const view = permissionProcedure('billing.view');
const collect = permissionProcedure('billing.collect');

export const paymentsRouter = router({
  list: view.input(ZPaymentListInput).query(({ ctx, input }) => listPayments(ctx.db, ctx.scope, input)),
  get: view.input(ZPaymentRef).query(({ ctx, input }) => paymentDetail(ctx.db, ctx.scope, input.paymentId)),
  clientAccount: view
    .input(ZClientRef)
    .query(({ ctx, input }) => clientAccount(ctx.db, ctx.scope, input.clientId)),
  clientOptions: view.input(ZClientSearch).query(({ ctx, input }) => clientOptions(ctx.db, ctx.scope, input)),
  record: collect
    .input(ZPaymentCreate)
    .mutation(({ ctx, input }) => recordPayment(ctx.db, ctx.scope, input, ctx.meta)),
  applyCredit: collect
    .input(ZCreditApply)
    .mutation(({ ctx, input }) => applyCredit(ctx.db, ctx.scope, input, ctx.meta)),
  refund: collect
    .input(ZRefundCreate)
    .mutation(({ ctx, input }) => refundCredit(ctx.db, ctx.scope, input, ctx.meta)),
  reverse: collect
    .input(ZPaymentReverse)
    .mutation(({ ctx, input }) => reversePayment(ctx.db, ctx.scope, input, ctx.meta)),
  reverseAllocation: collect
    .input(ZAllocationReverse)
    .mutation(({ ctx, input }) => reverseAllocation(ctx.db, ctx.scope, input, ctx.meta)),
  update: collect
    .input(ZPaymentUpdate)
    .mutation(({ ctx, input }) => updatePayment(ctx.db, ctx.scope, input, ctx.meta)),
});
