import {
  ZAudienceInput,
  ZBroadcastInput,
  ZBroadcastList,
  ZBroadcastRef,
  ZBroadcastSettings,
  ZBroadcastTemplateInput,
  ZBroadcastTemplateList,
  ZBroadcastTemplateRef,
  ZBroadcastTemplateUpdate,
  ZClientBroadcasts,
  ZDeliveryList,
  ZPreviewInput,
  ZTestSendInput,
} from '../../../domain/broadcasts';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import {
  audiencePreview,
  clientBroadcasts,
  createBroadcast,
  getBroadcast,
  getSettings,
  listBroadcasts,
  listDeliveries,
  previewFor,
  retryFailed,
  testSend,
  transition,
  updateSettings,
} from './service';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from './templates';

export const broadcastTemplatesRouter = router({
  list: permissionProcedure('templates.view')
    .input(ZBroadcastTemplateList)
    .query(({ ctx, input }) => listTemplates(ctx.db, ctx.scope, input)),
  get: permissionProcedure('templates.view')
    .input(ZBroadcastTemplateRef)
    .query(({ ctx, input }) => getTemplate(ctx.db, ctx.scope, input.id)),
  create: permissionProcedure('templates.create')
    .input(ZBroadcastTemplateInput)
    .mutation(({ ctx, input }) => createTemplate(ctx.db, ctx.scope, input, ctx.meta)),
  update: permissionProcedure('templates.edit')
    .input(ZBroadcastTemplateUpdate)
    .mutation(({ ctx, input: { id, ...values } }) => updateTemplate(ctx.db, ctx.scope, id, values, ctx.meta)),
  delete: permissionProcedure('templates.delete')
    .input(ZBroadcastTemplateRef)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.scope, input.id, ctx.meta)),
  /** The template (or unsaved text) as a chosen client would read it. */
  preview: permissionProcedure('templates.view')
    .input(ZPreviewInput)
    .query(({ ctx, input }) => previewFor(ctx.db, ctx.scope, input, input.clientId, ctx.config.publicUrl)),
});

export const broadcastsRouter = router({
  list: permissionProcedure('broadcasts.view')
    .input(ZBroadcastList)
    .query(({ ctx, input }) => listBroadcasts(ctx.db, ctx.scope, input)),
  get: permissionProcedure('broadcasts.view')
    .input(ZBroadcastRef)
    .query(({ ctx, input }) => getBroadcast(ctx.db, ctx.scope, input.id)),
  deliveries: permissionProcedure('broadcasts.view')
    .input(ZDeliveryList)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.scope, input)),
  /** Before sending: how many, a sample to preview, and who is left out and why. */
  audience: permissionProcedure('broadcasts.view')
    .input(ZAudienceInput)
    .query(({ ctx, input }) => audiencePreview(ctx.db, ctx.scope, input.audience, input.mode)),
  preview: permissionProcedure('broadcasts.view')
    .input(ZPreviewInput)
    .query(({ ctx, input }) => previewFor(ctx.db, ctx.scope, input, input.clientId, ctx.config.publicUrl)),
  testSend: permissionProcedure('broadcasts.create')
    .input(ZTestSendInput)
    .mutation(({ ctx, input }) => testSend(ctx.db, ctx.scope, input, ctx.config.publicUrl, ctx.meta)),
  create: permissionProcedure('broadcasts.send')
    .input(ZBroadcastInput)
    .mutation(({ ctx, input }) => createBroadcast(ctx.db, ctx.scope, input, ctx.meta)),
  pause: permissionProcedure('broadcasts.send')
    .input(ZBroadcastRef)
    .mutation(({ ctx, input }) => transition(ctx.db, ctx.scope, input.id, 'pause', ctx.meta)),
  resume: permissionProcedure('broadcasts.send')
    .input(ZBroadcastRef)
    .mutation(({ ctx, input }) => transition(ctx.db, ctx.scope, input.id, 'resume', ctx.meta)),
  cancel: permissionProcedure('broadcasts.send')
    .input(ZBroadcastRef)
    .mutation(({ ctx, input }) => transition(ctx.db, ctx.scope, input.id, 'cancel', ctx.meta)),
  retryFailed: permissionProcedure('broadcasts.send')
    .input(ZBroadcastRef)
    .mutation(({ ctx, input }) => retryFailed(ctx.db, ctx.scope, input.id, ctx.meta)),
  settings: permissionProcedure('broadcasts.view').query(({ ctx }) => getSettings(ctx.db, ctx.scope)),
  updateSettings: permissionProcedure('broadcasts.send')
    .input(ZBroadcastSettings)
    .mutation(({ ctx, input }) => updateSettings(ctx.db, ctx.scope, input, ctx.meta)),
  /** A client's page: the broadcasts it received and their state. */
  forClient: permissionProcedure('broadcasts.view')
    .input(ZClientBroadcasts)
    .query(({ ctx, input }) => clientBroadcasts(ctx.db, ctx.scope, input)),
});
