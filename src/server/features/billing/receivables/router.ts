import { ZAgingInput } from '../../../../domain/billing/payments';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { agingReport } from './service';

// billing.receivables.*: what clients owe, aged (issue 35).
export const receivablesRouter = router({
  aging: permissionProcedure('billing.view')
    .input(ZAgingInput)
    .query(({ ctx, input }) => agingReport(ctx.db, ctx.scope, input)),
});
