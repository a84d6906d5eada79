import { ZStartFirmExport } from '../../../domain/firm-export';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { listFirmExports, startFirmExport } from './service';

/** Firm settings → Export: the owner's whole-firm export. */
export const firmExportRouter = router({
  list: staffProcedure.query(({ ctx }) => listFirmExports(ctx.db, ctx.scope)),
  start: staffProcedure
    .input(ZStartFirmExport)
    .mutation(({ ctx, input }) =>
      startFirmExport(ctx.db, ctx.config, { sub: ctx.identity.sub, scope: ctx.scope }, input, ctx.meta),
    ),
});
