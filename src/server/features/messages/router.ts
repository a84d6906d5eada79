import {
  ZAttachmentSave,
  ZClientRef,
  ZHeldRef,
  ZHeldRelease,
  ZMessagePage,
  ZMessagePost,
  ZPortalMessagePage,
  ZPortalMessagePost,
  ZPortalThreadCreate,
  ZPortalThreadList,
  ZPortalThreadRef,
  ZThreadCreate,
  ZThreadList,
  ZThreadPeople,
  ZThreadRef,
  ZThreadUpdate,
} from '../../../domain/messages';
import { router } from '../../trpc/init';
import { permissionProcedure, portalClientProcedure } from '../../trpc/procedures';
import { saveAttachmentCopy } from './attachments';
import { clientForwardingAddress, discardHeld, listHeld, releaseHeld } from './held';
import { peopleOptions } from './options';
import {
  getPortalThread,
  listPortalThreads,
  portalCreateThread,
  portalMarkRead,
  portalMessages,
  portalPostMessage,
  portalUnread,
} from './portal';
import { listMessages, markRead, postMessage } from './thread-messages';
import { addPeople, createThread, getThread, listThreads, unreadCount, updateThread } from './threads';

// DECISION (issue 38): talking with a client is part of seeing the client. Every procedure needs
// `clients.view` and the client's visibility (a member limited to assigned clients sees those
// clients' threads, and a thread they are put on); no new permission to grant in every firm.
const member = permissionProcedure('clients.view');

export const messagesRouter = router({
  list: member.input(ZThreadList).query(({ ctx, input }) => listThreads(ctx.db, ctx.scope, input)),
  unread: member.query(({ ctx }) => unreadCount(ctx.db, ctx.scope)),
  get: member.input(ZThreadRef).query(({ ctx, input }) => getThread(ctx.db, ctx.scope, input.threadId)),
  messages: member.input(ZMessagePage).query(({ ctx, input }) => listMessages(ctx.db, ctx.scope, input)),
  peopleOptions: member
    .input(ZClientRef)
    .query(({ ctx, input }) => peopleOptions(ctx.db, ctx.scope, input.clientId)),
  create: member
    .input(ZThreadCreate)
    .mutation(({ ctx, input }) => createThread(ctx.db, ctx.scope, input, ctx.meta)),
  post: member
    .input(ZMessagePost)
    .mutation(({ ctx, input }) => postMessage(ctx.db, ctx.scope, input, ctx.meta)),
  markRead: member
    .input(ZThreadRef)
    .mutation(({ ctx, input }) => markRead(ctx.db, ctx.scope, input.threadId, ctx.meta)),
  update: member
    .input(ZThreadUpdate)
    .mutation(({ ctx, input }) => updateThread(ctx.db, ctx.scope, input, ctx.meta)),
  addPeople: member
    .input(ZThreadPeople)
    .mutation(({ ctx, input }) => addPeople(ctx.db, ctx.scope, input, ctx.meta)),
  /** Mail that came in and was not posted (unknown sender, bad address): for review. */
  held: member.query(({ ctx }) => listHeld(ctx.db, ctx.scope)),
  discardHeld: member
    .input(ZHeldRef)
    .mutation(({ ctx, input }) => discardHeld(ctx.db, ctx.storage, ctx.scope, input.heldId, ctx.meta)),
  /** Reviewed and wanted: posted into a conversation the member chooses (or a new one). */
  releaseHeld: member
    .input(ZHeldRelease)
    .mutation(({ ctx, input }) => releaseHeld(ctx.db, ctx.scope, input, ctx.meta)),
  /** A message's file copied into another folder of the client's documents (the right to add files). */
  saveAttachment: permissionProcedure('documents.create')
    .input(ZAttachmentSave)
    .mutation(({ ctx, input }) => saveAttachmentCopy(ctx.db, ctx.storage, ctx.scope, input, ctx.meta)),
  forwardingAddress: member
    .input(ZClientRef)
    .query(({ ctx, input }) => clientForwardingAddress(ctx.db, ctx.config, ctx.scope, input.clientId)),
});

export const clientPortalMessagesRouter = router({
  list: portalClientProcedure
    .input(ZPortalThreadList)
    .query(({ ctx, input }) => listPortalThreads(ctx.db, ctx.access, input.page)),
  unread: portalClientProcedure.query(({ ctx }) => portalUnread(ctx.db, ctx.access)),
  get: portalClientProcedure
    .input(ZPortalThreadRef)
    .query(({ ctx, input }) => getPortalThread(ctx.db, ctx.access, input.threadId)),
  messages: portalClientProcedure
    .input(ZPortalMessagePage)
    .query(({ ctx, input }) => portalMessages(ctx.db, ctx.access, input)),
  create: portalClientProcedure
    .input(ZPortalThreadCreate)
    .mutation(({ ctx, input }) => portalCreateThread(ctx.db, ctx.access, input, ctx.meta)),
  post: portalClientProcedure
    .input(ZPortalMessagePost)
    .mutation(({ ctx, input }) => portalPostMessage(ctx.db, ctx.access, input, ctx.meta)),
  markRead: portalClientProcedure
    .input(ZPortalThreadRef)
    .mutation(({ ctx, input }) => portalMarkRead(ctx.db, ctx.access, input.threadId, ctx.meta)),
});
