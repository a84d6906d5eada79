import { ZStatementInput } from '../../../../domain/billing/payments';
import { router } from '../../../trpc/init';
import { permissionProcedure } from '../../../trpc/procedures';
import { visibleClient } from '../../clients';
import { clientStatement } from './service';

// billing.statements.*: a client's statement for a period (issue 35); its PDF is an HTTP route.
export const statementsRouter = router({
  get: permissionProcedure('billing.view')
    .input(ZStatementInput)
    .query(async ({ ctx, input }) => {
      await visibleClient(ctx.db, ctx.scope, input.clientId);
      return clientStatement(ctx.db, ctx.scope.orgId, input.clientId, input.from, input.to);
    }),
});
