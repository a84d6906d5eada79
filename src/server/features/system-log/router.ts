import { ZSystemLogListInput } from '../../../domain/system-log';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { listSystemLog, systemLogFacets } from './service';

export const systemLogRouter = router({
  list: permissionProcedure('systemLog.view')
    .input(ZSystemLogListInput)
    .query(({ ctx, input }) => listSystemLog(ctx.db, ctx.scope, input)),
  /** The choices of the filter selects. The CSV export is a plain HTTP route: export.ts. */
  facets: permissionProcedure('systemLog.view').query(({ ctx }) => systemLogFacets(ctx.db, ctx.scope)),
});
