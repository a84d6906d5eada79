import {
  ZEngagementCreate,
  ZEngagementEnd,
  ZEngagementListInput,
  ZEngagementRef,
  ZEngagementUpdate,
} from '../../../domain/engagements';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  createEngagement,
  deleteEngagement,
  endEngagement,
  getEngagement,
  listForClient,
  updateEngagement,
} from './service';

export const engagementsRouter = router({
  listForClient: permissionProcedure('clients.view')
    .input(ZEngagementListInput)
    .query(({ ctx, input }) => listForClient(ctx.db, ctx.scope, input)),
  get: permissionProcedure('clients.view')
    .input(ZEngagementRef)
    .query(({ ctx, input }) => getEngagement(ctx.db, ctx.scope, input.engagementId)),
  create: permissionProcedure('clients.edit')
    .input(ZEngagementCreate)
    .mutation(({ ctx, input }) => createEngagement(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('clients.edit')
    .input(ZEngagementUpdate)
    .mutation(({ ctx, input }) => updateEngagement(ctx.db, ctx.scope, input, ctx.meta)),
  end: permissionProcedure('clients.edit')
    .input(ZEngagementEnd)
    .mutation(({ ctx, input }) => endEngagement(ctx.db, ctx.scope, input, ctx.meta)),
  delete: permissionProcedure('clients.edit')
    .input(ZEngagementRef)
    .mutation(({ ctx, input }) => deleteEngagement(ctx.db, ctx.scope, input.engagementId, ctx.meta)),
});
