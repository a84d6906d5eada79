import {
  ZPortalCalendar,
  ZPortalComment,
  ZPortalFolderInput,
  ZPortalInvoiceList,
  ZPortalInvoiceRef,
  ZPortalProjectList,
  ZPortalTaskList,
  ZPortalTaskRef,
} from '../../../domain/client-portal';
import { router } from '../../trpc/init';
import { portalClientProcedure } from '../../trpc/procedures';
import { portalCalendar } from './calendar';
import { portalFolderContents } from './documents';
import { portalHome } from './home';
import { listPortalInvoices, portalInvoice } from './invoices';
import { listPortalProjects } from './projects';
import { commentOnPortalTask, completePortalTask, listPortalTasks, portalTaskDetail } from './tasks';

// Every procedure here is about one client (portalClientProcedure: the session must reach it) and
// every query inside is scoped by ctx.access's firm and client. The matrix test
// (src/server/portal/matrix.test.ts) fails for a clientPortal* procedure it has no row for.

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
    .mutation(({ ctx, input }) => completePortalTask(ctx.db, ctx.access, input.taskId, ctx.meta)),
  comment: portalClientProcedure
    .input(ZPortalComment)
    .mutation(({ ctx, input }) => commentOnPortalTask(ctx.db, ctx.access, input, ctx.meta)),
});

export const clientPortalInvoicesRouter = router({
  list: portalClientProcedure
    .input(ZPortalInvoiceList)
    .query(({ ctx, input }) => listPortalInvoices(ctx.db, ctx.access, input)),
  get: portalClientProcedure
    .input(ZPortalInvoiceRef)
    .query(({ ctx, input }) => portalInvoice(ctx.db, ctx.access, input.invoiceId)),
});

/** The client's filing calendar (issue 39): a fiscal year of its statutory filings and their status. */
export const clientPortalCalendarRouter = router({
  get: portalClientProcedure
    .input(ZPortalCalendar)
    .query(({ ctx, input }) => portalCalendar(ctx.db, ctx.access, input)),
});
