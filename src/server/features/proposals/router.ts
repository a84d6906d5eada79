import {
  ZPortalSign,
  ZPortalSignDecline,
  ZPortalSignRef,
  ZProposalClientSearch,
  ZProposalCreate,
  ZProposalFromTemplate,
  ZProposalListInput,
  ZProposalRef,
  ZProposalTemplateRef,
  ZProposalTemplateSave,
  ZProposalUpdate,
  ZProposalWithdraw,
  ZSignatureRequest,
  ZSignerCodeVerify,
  ZSignerDecline,
  ZSignerLink,
  ZSignerOptions,
  ZSignerSession,
  ZSignerSign,
  ZSigningCertificateUpload,
} from '../../../domain/proposals';
import { router } from '../../trpc/init';
import { permissionProcedure, portalClientProcedure, publicProcedure } from '../../trpc/procedures';
import { clientOptions, requestTemplateOptions, serviceOptions, signerOptions } from './options';
import { portalDecline, portalSign, portalSigningView, portalToSign } from './portal-signing';
import {
  createProposal,
  draftFromTemplate,
  getProposal,
  listProposals,
  sendProposal,
  updateProposal,
  withdrawProposal,
} from './service';
import { signingCertificateInfo, uploadCertificate } from './settings';
import { requestSignature } from './signature-requests';
import {
  declineProposal,
  openLink,
  requestSignerCode,
  signerView,
  signProposal,
  verifySignerCode,
} from './signing';
import { deleteTemplate, getTemplate, listTemplates, saveTemplate } from './templates';

const manage = permissionProcedure('proposals.manage');

// Proposals (issue 37). Staff: templates, writing, sending, withdrawing, all under proposals.manage
// and the client's visibility. Signers: public procedures that answer only a valid link.

const templatesRouter = router({
  list: manage.query(({ ctx }) => listTemplates(ctx.db, ctx.scope)),
  get: manage
    .input(ZProposalTemplateRef)
    .query(({ ctx, input }) => getTemplate(ctx.db, ctx.scope, input.templateId)),
  save: manage
    .input(ZProposalTemplateSave)
    .mutation(({ ctx, input }) => saveTemplate(ctx.db, ctx.scope, input, ctx.meta)),
  delete: manage
    .input(ZProposalTemplateRef)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.scope, input.templateId, ctx.meta)),
});

export const proposalsRouter = router({
  templates: templatesRouter,
  serviceOptions: manage.query(({ ctx }) => serviceOptions(ctx.db, ctx.scope)),
  /** The request templates an accepted proposal may send as its onboarding request. */
  requestTemplateOptions: manage.query(({ ctx }) => requestTemplateOptions(ctx.db, ctx.scope)),
  clientOptions: manage
    .input(ZProposalClientSearch)
    .query(({ ctx, input }) => clientOptions(ctx.db, ctx.scope, input.search)),
  list: manage.input(ZProposalListInput).query(({ ctx, input }) => listProposals(ctx.db, ctx.scope, input)),
  get: manage.input(ZProposalRef).query(({ ctx, input }) => getProposal(ctx.db, ctx.scope, input.proposalId)),
  /** A new proposal's form, filled from a template (nothing saved until create). */
  fromTemplate: manage
    .input(ZProposalFromTemplate)
    .query(({ ctx, input }) => draftFromTemplate(ctx.db, ctx.scope, input)),
  create: manage
    .input(ZProposalCreate)
    .mutation(({ ctx, input }) => createProposal(ctx.db, ctx.scope, input, ctx.meta)),
  update: manage
    .input(ZProposalUpdate)
    .mutation(({ ctx, input }) => updateProposal(ctx.db, ctx.scope, input, ctx.meta)),
  send: manage
    .input(ZProposalRef)
    .mutation(({ ctx, input }) => sendProposal(ctx.db, ctx.scope, input.proposalId, ctx.meta, ctx)),
  /** Who may sign for a client: its portal users and its contact email (the signature dialog). */
  signerOptions: manage
    .input(ZSignerOptions)
    .query(({ ctx, input }) => signerOptions(ctx.db, ctx.scope, input.clientId)),
  /** A client's PDF sent for signature (the same signing flow; sealed next to the original). */
  requestSignature: manage
    .input(ZSignatureRequest)
    .mutation(({ ctx, input }) => requestSignature(ctx.db, ctx.scope, input, ctx.meta, ctx)),
  withdraw: manage
    .input(ZProposalWithdraw)
    .mutation(({ ctx, input }) => withdrawProposal(ctx.db, ctx.scope, input, ctx.meta)),
  /** The settings page: the certificate that seals signed documents, and the firm's own upload. */
  certificate: permissionProcedure('settings.edit').query(({ ctx }) =>
    signingCertificateInfo(ctx.db, ctx.scope.orgId),
  ),
  uploadCertificate: permissionProcedure('settings.edit')
    .input(ZSigningCertificateUpload)
    .mutation(({ ctx, input }) => uploadCertificate(ctx.db, ctx.config, ctx.scope, input, ctx.meta)),
});

/** The signer's side (/sign/{proposal}/{signer}?t=…): no account, the link and a mailed code. */
export const signingRouter = router({
  open: publicProcedure.input(ZSignerLink).mutation(({ ctx, input }) => openLink(ctx.db, input, ctx.meta)),
  requestCode: publicProcedure
    .input(ZSignerLink)
    .mutation(({ ctx, input }) =>
      requestSignerCode(ctx.db, { mailer: ctx.mailer, log: ctx.req.log }, input, ctx.meta),
    ),
  verifyCode: publicProcedure
    .input(ZSignerCodeVerify)
    .mutation(({ ctx, input }) => verifySignerCode(ctx.db, input, ctx.meta)),
  view: publicProcedure.input(ZSignerSession).query(({ ctx, input }) => signerView(ctx.db, input)),
  sign: publicProcedure
    .input(ZSignerSign)
    .mutation(({ ctx, input }) => signProposal(ctx.db, input, ctx.meta, ctx)),
  decline: publicProcedure
    .input(ZSignerDecline)
    .mutation(({ ctx, input }) => declineProposal(ctx.db, input, ctx.meta)),
});

/** The portal's "To sign": a signed-in portal user who is a signer signs without the mailed code. */
export const clientPortalSigningRouter = router({
  list: portalClientProcedure.query(({ ctx }) => portalToSign(ctx.db, ctx.access, ctx.portal.email)),
  get: portalClientProcedure
    .input(ZPortalSignRef)
    .mutation(({ ctx, input }) =>
      portalSigningView(ctx.db, ctx.access, ctx.portal.email, input.proposalId, ctx.meta),
    ),
  sign: portalClientProcedure
    .input(ZPortalSign)
    .mutation(({ ctx, input }) => portalSign(ctx.db, ctx.access, ctx.portal.email, input, ctx.meta, ctx)),
  decline: portalClientProcedure
    .input(ZPortalSignDecline)
    .mutation(({ ctx, input }) => portalDecline(ctx.db, ctx.access, ctx.portal.email, input, ctx.meta)),
});
