import { ZImportRef, ZImportRowsInput } from '../../../domain/client-import';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { runImportStep } from './import-commit';
import { importRows, importSummary, unfinishedImport } from './import-rows';
import { discardImport } from './import-stage';

/** The preview, the steps and the report of an import (the file itself arrives by its own route). */
export const clientImportRouter = router({
  get: permissionProcedure('clients.create')
    .input(ZImportRef)
    .query(({ ctx, input }) => importSummary(ctx.db, ctx.scope, input.importId)),
  unfinished: permissionProcedure('clients.create').query(({ ctx }) => unfinishedImport(ctx.db, ctx.scope)),
  rows: permissionProcedure('clients.create')
    .input(ZImportRowsInput)
    .query(({ ctx, input }) => importRows(ctx.db, ctx.scope, input)),
  /** Imports the next batch; the web calls it until the status is done, showing the progress. */
  step: permissionProcedure('clients.create')
    .input(ZImportRef)
    .mutation(({ ctx, input }) => runImportStep(ctx.db, ctx.scope, input.importId, ctx.meta)),
  discard: permissionProcedure('clients.create')
    .input(ZImportRef)
    .mutation(({ ctx, input }) => discardImport(ctx.db, ctx.scope, input.importId, ctx.meta)),
});
