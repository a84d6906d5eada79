import { TRPCError } from '@trpc/server';
import { ZClientRef } from '../../../domain/clients';
import { hasPermission } from '../../../domain/permissions';
import { ZRegistrationsSet } from '../../../domain/statutory/registrations';
import {
  ZCatalogueAccept,
  ZEngageInput,
  ZExtensionApply,
  ZExtensionInput,
  ZExtensionRef,
  ZGapsInput,
} from '../../../domain/statutory/schemas';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { acceptCatalogueUpdate, catalogueUpdatePreview } from './catalogue-updates';
import { applyExtension, createExtension, listExtensions, previewExtension } from './extensions';
import {
  catalogueView,
  clientFilings,
  engageGaps,
  firmRelease,
  firmTodayOf,
  getRegistrations,
  listGaps,
  setRegistrations,
} from './service';

// The statutory calendar (issue 39). The catalogue is the product's, read-only; registrations,
// links and extensions are the firm's own.
export const statutoryRouter = router({
  catalogue: permissionProcedure('services.view').query(async ({ ctx }) =>
    catalogueView(await firmRelease(ctx.db, ctx.scope.orgId), await firmTodayOf(ctx.db, ctx.scope.orgId)),
  ),
  catalogueUpdate: permissionProcedure('services.view').query(({ ctx }) =>
    catalogueUpdatePreview(ctx.db, ctx.scope),
  ),
  acceptCatalogueUpdate: permissionProcedure('services.edit')
    .input(ZCatalogueAccept)
    .mutation(({ ctx, input }) => acceptCatalogueUpdate(ctx.db, ctx.scope, input.version, ctx.meta)),
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
    .input(ZExtensionApply)
    .mutation(({ ctx, input }) => {
      // Telling the clients sends a broadcast: the broadcasts feature's own right.
      if (input.notice && !hasPermission(ctx.scope, 'broadcasts.send'))
        throw new TRPCError({ code: 'FORBIDDEN', message: 'You may not send broadcasts' });
      return applyExtension(ctx.db, ctx.scope, input.extensionId, input.notice ?? null, ctx.meta);
    }),
});
