import { ZPageInput } from '../../../domain/pagination';
import { ZWebhookDeliveryRef, ZWebhookFields, ZWebhookRef, ZWebhookUpdate } from '../../../domain/webhooks';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  testWebhook,
  updateWebhook,
} from './service';

// Webhook subscriptions, managed by whoever may change the firm's settings (owner, admin).
const manage = permissionProcedure('settings.edit');

export const webhooksRouter = router({
  list: manage.query(({ ctx }) => listWebhooks(ctx.db, ctx.scope)),
  create: manage
    .input(ZWebhookFields)
    .mutation(({ ctx, input }) => createWebhook(ctx, ctx.scope, input, ctx.meta)),
  update: manage
    .input(ZWebhookUpdate)
    .mutation(({ ctx, input }) => updateWebhook(ctx, ctx.scope, input, ctx.meta)),
  delete: manage
    .input(ZWebhookRef)
    .mutation(({ ctx, input }) => deleteWebhook(ctx.db, ctx.scope, input.subscriptionId, ctx.meta)),
  deliveries: manage
    .input(ZWebhookRef.extend(ZPageInput.pick({ page: true, pageSize: true }).shape))
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.scope, input)),
  test: manage
    .input(ZWebhookRef)
    .mutation(({ ctx, input }) => testWebhook(ctx.db, ctx.scope, input.subscriptionId, ctx.meta)),
  replay: manage
    .input(ZWebhookDeliveryRef)
    .mutation(({ ctx, input }) => replayDelivery(ctx.db, ctx.scope, input.deliveryId, ctx.meta)),
});
