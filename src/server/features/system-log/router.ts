import { ZSystemLogListInput } from '../../../domain/system-log';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { listSystemLog } from './service';

export const systemLogRouter = router({
  list: permissionProcedure('systemLog.view')
    .input(ZSystemLogListInput)
    .query(({ ctx, input }) => listSystemLog(ctx.db, ctx.scope, input)),
});
