import { ZClientSearch } from '../../../domain/projects';
import { ZChaseSettings, ZRequestChaseUpdate } from '../../../domain/requests/chase';
import {
  ZProjectTemplateRef,
  ZProjectTemplateRequest,
  ZRequestBulkSend,
  ZWaitingOnClients,
} from '../../../domain/requests/flow';
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
  ZRequestDraftUpdate,
  ZRequestListInput,
  ZRequestRef,
  ZRequestTemplateRef,
  ZRequestTemplateSave,
} from '../../../domain/requests/schemas';
import { router } from '../../trpc/init';
import { permissionProcedure, portalClientProcedure } from '../../trpc/procedures';
import { searchClients } from '../projects';
import { getProjectTemplateRequest, setProjectTemplateRequest } from './auto-send';
import { sendBulk } from './bulk';
import { getChaseSettings, updateChaseSettings, updateRequestChase } from './chase';
import { getRequest } from './detail';
import { updateDraft } from './drafts';
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
import { clientRequestSummary, waitingOnClients } from './waiting';

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
  updateDraft: manage
    .input(ZRequestDraftUpdate)
    .mutation(({ ctx, input }) => updateDraft(ctx.db, ctx.scope, input, ctx.meta, ctx)),
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
  /** Selected clients of the client list: one request each; those without portal users skipped. */
  sendBulk: manage
    .input(ZRequestBulkSend)
    .mutation(({ ctx, input }) => sendBulk(ctx.db, ctx.scope, input, ctx.meta, ctx)),
  /** The dashboard's "Waiting on clients": sent and not yet submitted, the soonest due first. */
  waiting: view
    .input(ZWaitingOnClients)
    .query(({ ctx, input }) => waitingOnClients(ctx.db, ctx.scope, input.limit)),
  /** The client page's open requests: how many, and the oldest due date. */
  clientSummary: view
    .input(ZRequestClientRef)
    .query(({ ctx, input }) => clientRequestSummary(ctx.db, ctx.scope, input.clientId)),
  /** The request a project template's projects send by themselves (its screen). */
  projectTemplate: view
    .input(ZProjectTemplateRef)
    .query(({ ctx, input }) => getProjectTemplateRequest(ctx.db, ctx.scope, input.projectTemplateId)),
  setProjectTemplate: manage
    .input(ZProjectTemplateRequest)
    .mutation(({ ctx, input }) => setProjectTemplateRequest(ctx.db, ctx.scope, input, ctx.meta)),
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
