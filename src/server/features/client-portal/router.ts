import {
  ZPortalComment,
  ZPortalFolderInput,
  ZPortalProjectList,
  ZPortalTaskList,
  ZPortalTaskRef,
} from '../../../domain/client-portal';
import type { TContext } from '../../trpc/context';
import { router } from '../../trpc/init';
import { portalClientProcedure } from '../../trpc/procedures';
import { sendNotificationMail, type TNotificationMail } from '../notifications';
import { mailerFor } from '../team';
import { portalFolderContents } from './documents';
import { portalHome } from './home';
import { listPortalProjects } from './projects';
import { commentOnPortalTask, completePortalTask, listPortalTasks, portalTaskDetail } from './tasks';

// Every procedure here is about one client (portalClientProcedure: the session must reach it) and
// every query inside is scoped by ctx.access's firm and client. The matrix test
// (src/server/portal/matrix.test.ts) fails for a clientPortal* procedure it has no row for.

/** Answers once the change has committed; the notification mail goes out after, never failing it. */
export async function delivered<T>(
  ctx: TContext,
  outcome: Promise<{ result: T; mail: TNotificationMail[] }>,
) {
  const { result, mail } = await outcome;
  if (mail.length) {
    await sendNotificationMail(
      { mailer: mailerFor(ctx.config, ctx.req.log), publicUrl: ctx.config.publicUrl, log: ctx.req.log },
      mail,
    );
  }
  return result;
}

export const clientPortalHomeRouter = router({
  get: portalClientProcedure.query(({ ctx }) => portalHome(ctx.db, ctx.access)),
});

export const clientPortalDocumentsRouter = router({
  folder: portalClientProcedure
    .input(ZPortalFolderInput)
    .query(({ ctx, input }) => portalFolderContents(ctx.db, ctx.access, input)),
});

export const clientPortalProjectsRouter = router({
  list: portalClientProcedure
    .input(ZPortalProjectList)
    .query(({ ctx, input }) => listPortalProjects(ctx.db, ctx.access, input)),
});

export const clientPortalTasksRouter = router({
  list: portalClientProcedure
    .input(ZPortalTaskList)
    .query(({ ctx, input }) => listPortalTasks(ctx.db, ctx.access, input)),
  get: portalClientProcedure
    .input(ZPortalTaskRef)
    .query(({ ctx, input }) => portalTaskDetail(ctx.db, ctx.access, input.taskId)),
  complete: portalClientProcedure
    .input(ZPortalTaskRef)
    .mutation(({ ctx, input }) =>
      delivered(ctx, completePortalTask(ctx.db, ctx.access, input.taskId, ctx.meta)),
    ),
  comment: portalClientProcedure
    .input(ZPortalComment)
    .mutation(({ ctx, input }) => delivered(ctx, commentOnPortalTask(ctx.db, ctx.access, input, ctx.meta))),
});
