import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import { dueWhileAway } from './away';
import { dashboardSummary } from './service';

export const dashboardRouter = router({
  /**
   * Every member has a home page, so this needs no right of its own: each section is answered only
   * to a member holding its view right (tasks, projects, system log), inside their client scope.
   */
  summary: staffProcedure.query(({ ctx }) => dashboardSummary(ctx.db, ctx.scope)),
  /** The caller's own leave and tasks only: null without the tasks right or a leave coming. */
  dueWhileAway: staffProcedure.query(({ ctx }) => dueWhileAway(ctx.db, ctx.scope)),
});
