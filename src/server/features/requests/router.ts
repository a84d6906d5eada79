import { ZClientSearch } from '../../../domain/projects';
import { ZChaseSettings, ZRequestChaseUpdate } from '../../../domain/requests/chase';
import {
  ZItemReview,
  ZPortalAnswer,
  ZPortalNotApplicable,
  ZPortalRemoveFile,
  ZPortalRequestList,
  ZPortalRequestRef,
  ZRequestCancel,
  ZRequestClientRef,
  ZRequestCreate,
  ZRequestListInput,
  ZRequestRef,
  ZRequestTemplateRef,
  ZRequestTemplateSave,
} from '../../../domain/requests/schemas';
import { router } from '../../trpc/init';
import { permissionProcedure, portalClientProcedure } from '../../trpc/procedures';
import { searchClients } from '../projects';
import { getChaseSettings, updateChaseSettings, updateRequestChase } from './chase';
import { getRequest } from './detail';
import { listRequests } from './list';
import {
  getPortalRequest,
  listPortalRequests,
  removeFile,
  saveAnswer,
  setNotApplicable,
  submitRequest,
} from './portal';
import { cancelRequest, completeRequest, reviewItem } from './review';
import { createRequest, recipientOptions, sendDraft } from './send';
import { copyTemplate, deleteTemplate, getTemplate, listTemplates, saveTemplate } from './templates';

const view = permissionProcedure('requests.view');
const manage = permissionProcedure('requests.manage');

// Client requests (issue 36): the firm's templates, sending, the list, review and closing. Every
// procedure checks the client's visibility through the request (./access).

const templatesRouter = router({
  list: view.query(({ ctx }) => listTemplates(ctx.db, ctx.scope)),
  get: view
    .input(ZRequestTemplateRef)
    .query(({ ctx, input }) => getTemplate(ctx.db, ctx.scope, input.templateId)),
  save: manage
    .input(ZRequestTemplateSave)
    .mutation(({ ctx, input }) => saveTemplate(ctx.db, ctx.scope, input, ctx.meta)),
  copy: manage
    .input(ZRequestTemplateRef)
    .mutation(({ ctx, input }) => copyTemplate(ctx.db, ctx.scope, input.templateId, ctx.meta)),
  delete: manage
    .input(ZRequestTemplateRef)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.scope, input.templateId, ctx.meta)),
});

export const requestsRouter = router({
  templates: templatesRouter,
  list: view.input(ZRequestListInput).query(({ ctx, input }) => listRequests(ctx.db, ctx.scope, input)),
  /** The list's client filter: a few letters in, the best matches the member may see out. */
  clients: view.input(ZClientSearch).query(({ ctx, input }) => searchClients(ctx.db, ctx.scope, input)),
  get: view.input(ZRequestRef).query(({ ctx, input }) => getRequest(ctx.db, ctx.scope, input.requestId)),
  recipientOptions: manage
    .input(ZRequestClientRef)
    .query(({ ctx, input }) => recipientOptions(ctx.db, ctx.scope, input.clientId)),
  create: manage
    .input(ZRequestCreate)
    .mutation(({ ctx, input }) => createRequest(ctx.db, ctx.scope, input, ctx.meta, ctx)),
  send: manage
    .input(ZRequestRef)
    .mutation(({ ctx, input }) => sendDraft(ctx.db, ctx.scope, input.requestId, ctx.meta, ctx)),
  review: manage
    .input(ZItemReview)
    .mutation(({ ctx, input }) => reviewItem(ctx.db, ctx.scope, input, ctx.meta, ctx)),
  complete: manage
    .input(ZRequestRef)
    .mutation(({ ctx, input }) => completeRequest(ctx.db, ctx.scope, input.requestId, ctx.meta)),
  cancel: manage
    .input(ZRequestCancel)
    .mutation(({ ctx, input }) => cancelRequest(ctx.db, ctx.scope, input, ctx.meta)),
  // Chasing: the firm's default schedule (Firm settings), and one request's own.
  chaseSettings: view.query(({ ctx }) => getChaseSettings(ctx.db, ctx.scope)),
  updateChaseSettings: permissionProcedure('settings.edit')
    .input(ZChaseSettings)
    .mutation(({ ctx, input }) => updateChaseSettings(ctx.db, ctx.scope, input, ctx.meta)),
  updateChase: manage
    .input(ZRequestChaseUpdate)
    .mutation(({ ctx, input }) => updateRequestChase(ctx.db, ctx.scope, input, ctx.meta)),
});

// The portal's side: only requests sent to the signed-in person, for the client they act for.
export const clientPortalRequestsRouter = router({
  list: portalClientProcedure
    .input(ZPortalRequestList)
    .query(({ ctx, input }) => listPortalRequests(ctx.db, ctx.access, input)),
  get: portalClientProcedure
    .input(ZPortalRequestRef)
    .query(({ ctx, input }) => getPortalRequest(ctx.db, ctx.access, input.requestId)),
  answer: portalClientProcedure
    .input(ZPortalAnswer)
    .mutation(({ ctx, input }) => saveAnswer(ctx.db, ctx.access, input, ctx.meta)),
  notApplicable: portalClientProcedure
    .input(ZPortalNotApplicable)
    .mutation(({ ctx, input }) => setNotApplicable(ctx.db, ctx.access, input, ctx.meta)),
  removeFile: portalClientProcedure
    .input(ZPortalRemoveFile)
    .mutation(({ ctx, input }) => removeFile(ctx.db, ctx.access, input, ctx.meta)),
  submit: portalClientProcedure
    .input(ZPortalRequestRef)
    .mutation(({ ctx, input }) => submitRequest(ctx.db, ctx.access, input.requestId, ctx.meta)),
});
