import { ZClientRef } from '../../../domain/clients';
import { ZRegistrationsSet } from '../../../domain/statutory/registrations';
import { ZEngageInput, ZExtensionInput, ZExtensionRef, ZGapsInput } from '../../../domain/statutory/schemas';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { applyExtension, createExtension, listExtensions, previewExtension } from './extensions';
import {
  catalogueView,
  clientFilings,
  engageGaps,
  firmTodayOf,
  getRegistrations,
  listGaps,
  setRegistrations,
} from './service';

// The statutory calendar (issue 39). The catalogue is the product's, read-only; registrations,
// links and extensions are the firm's own.
export const statutoryRouter = router({
  catalogue: permissionProcedure('services.view').query(async ({ ctx }) =>
    catalogueView(await firmTodayOf(ctx.db, ctx.scope.orgId)),
  ),
  registrations: permissionProcedure('clients.view')
    .input(ZClientRef)
    .query(({ ctx, input }) => getRegistrations(ctx.db, ctx.scope, input.clientId)),
  setRegistrations: permissionProcedure('clients.edit')
    .input(ZRegistrationsSet)
    .mutation(({ ctx, input }) => setRegistrations(ctx.db, ctx.scope, input.clientId, input.data, ctx.meta)),
  clientFilings: permissionProcedure('clients.view')
    .input(ZClientRef)
    .query(({ ctx, input }) => clientFilings(ctx.db, ctx.scope, input.clientId)),
  gaps: permissionProcedure('clients.view')
    .input(ZGapsInput)
    .query(({ ctx, input }) => listGaps(ctx.db, ctx.scope, input)),
  engage: permissionProcedure('clients.edit')
    .input(ZEngageInput)
    .mutation(({ ctx, input }) => engageGaps(ctx.db, ctx.scope, input, ctx.meta)),
  extensions: permissionProcedure('services.view').query(({ ctx }) => listExtensions(ctx.db, ctx.scope)),
  createExtension: permissionProcedure('services.edit')
    .input(ZExtensionInput)
    .mutation(({ ctx, input }) => createExtension(ctx.db, ctx.scope, input, ctx.meta)),
  previewExtension: permissionProcedure('services.view')
    .input(ZExtensionRef)
    .query(({ ctx, input }) => previewExtension(ctx.db, ctx.scope, input.extensionId)),
  applyExtension: permissionProcedure('services.edit')
    .input(ZExtensionRef)
    .mutation(({ ctx, input }) => applyExtension(ctx.db, ctx.scope, input.extensionId, ctx.meta)),
});
