import {
  ZBillingSummary,
  ZClientSummary,
  ZComplianceGrid,
  ZNotStarted,
  ZReportViewList,
  ZReportViewRef,
  ZReportViewSave,
  ZServicesSummary,
  ZTeamSummary,
} from '../../../domain/reports';
import { ZRequestsOutstanding } from '../../../domain/requests/report';
import { requirePermission } from '../../auth';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { billingSummary } from './billing-summary';
import { clientSummary } from './client-summary';
import { complianceGrid } from './grid';
import { reportHeadlines } from './headlines';
import { reportOptions } from './options';
import { requestsOutstanding } from './requests-outstanding';
import { notStarted, servicesSummary } from './services-summary';
import { teamSummary } from './team-summary';
import { deleteView, listViews, saveView } from './views';

// Every report needs `reports.view`; a member limited to assigned clients gets figures for those
// clients only (scope.ts), and money only with `timesheets.rates`.
const view = permissionProcedure('reports.view');
/** The billing summary is money the firm is owed: it needs the billing right as well. */
const viewBilling = view.use(({ ctx, next }) => {
  requirePermission(ctx.scope, 'billing.view');
  return next();
});

/** Requests outstanding names clients' requests: it needs the requests right as well. */
const viewRequests = view.use(({ ctx, next }) => {
  requirePermission(ctx.scope, 'requests.view');
  return next();
});

const viewsRouter = router({
  list: view.input(ZReportViewList).query(({ ctx, input }) => listViews(ctx.db, ctx.scope, input.report)),
  save: view
    .input(ZReportViewSave)
    .mutation(({ ctx, input }) => saveView(ctx.db, ctx.scope, input, ctx.meta)),
  delete: view
    .input(ZReportViewRef)
    .mutation(({ ctx, input }) => deleteView(ctx.db, ctx.scope, input.viewId, ctx.meta)),
});

export const reportsRouter = router({
  views: viewsRouter,
  options: view.query(({ ctx }) => reportOptions(ctx.db, ctx.scope)),
  headlines: view.query(({ ctx }) => reportHeadlines(ctx.db, ctx.scope)),
  clientSummary: view
    .input(ZClientSummary)
    .query(({ ctx, input }) => clientSummary(ctx.db, ctx.scope, input)),
  teamSummary: view.input(ZTeamSummary).query(({ ctx, input }) => teamSummary(ctx.db, ctx.scope, input)),
  servicesSummary: view
    .input(ZServicesSummary)
    .query(({ ctx, input }) => servicesSummary(ctx.db, ctx.scope, input)),
  notStarted: view.input(ZNotStarted).query(({ ctx, input }) => notStarted(ctx.db, ctx.scope, input)),
  billingSummary: viewBilling
    .input(ZBillingSummary)
    .query(({ ctx, input }) => billingSummary(ctx.db, ctx.scope, input)),
  requestsOutstanding: viewRequests
    .input(ZRequestsOutstanding)
    .query(({ ctx, input }) => requestsOutstanding(ctx.db, ctx.scope, input)),
  complianceGrid: view
    .input(ZComplianceGrid)
    .query(({ ctx, input }) => complianceGrid(ctx.db, ctx.scope, input)),
});
