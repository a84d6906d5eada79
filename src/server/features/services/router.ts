import { TRPCError } from '@trpc/server';
import { hasPermission } from '../../../domain/permissions';
import {
  ZServiceClientsInput,
  ZServiceInput,
  ZServiceListInput,
  ZServiceRef,
  ZServiceUpdate,
} from '../../../domain/services';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  createService,
  getService,
  listServices,
  serviceClients,
  setServiceArchived,
  updateService,
} from './service';

export const servicesRouter = router({
  list: permissionProcedure('services.view')
    .input(ZServiceListInput)
    .query(({ ctx, input }) => listServices(ctx.db, ctx.scope, input)),
  get: permissionProcedure('services.view')
    .input(ZServiceRef)
    .query(({ ctx, input }) => getService(ctx.db, ctx.scope, input.serviceId)),
  create: permissionProcedure('services.create')
    .input(ZServiceInput)
    .mutation(({ ctx, input }) => createService(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('services.edit')
    .input(ZServiceUpdate)
    .mutation(({ ctx, input: { serviceId, ...values } }) =>
      updateService(ctx.db, ctx.scope, serviceId, values, ctx.meta),
    ),
  archive: permissionProcedure('services.delete')
    .input(ZServiceRef)
    .mutation(({ ctx, input }) => setServiceArchived(ctx.db, ctx.scope, input.serviceId, true, ctx.meta)),
  restore: permissionProcedure('services.delete')
    .input(ZServiceRef)
    .mutation(({ ctx, input }) => setServiceArchived(ctx.db, ctx.scope, input.serviceId, false, ctx.meta)),
  /** The engagements of a service; reading clients needs clients.view too. */
  clients: permissionProcedure('services.view')
    .input(ZServiceClientsInput)
    .query(({ ctx, input }) => {
      if (!hasPermission(ctx.scope, 'clients.view')) {
        throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to see clients' });
      }
      return serviceClients(ctx.db, ctx.scope, input);
    }),
});
