import { router } from '../../trpc/init';
import { permissionProcedure, staffProcedure } from '../../trpc/procedures';
import { dueWhileAway } from './away';
import { dashboardSummary } from './service';
import { dismissSetupChecklist, setupChecklist } from './setup';

export const dashboardRouter = router({
  /**
   * Every member has a home page, so this needs no right of its own: each section is answered only
   * to a member holding its view right (tasks, projects, system log), inside their client scope.
   */
  summary: staffProcedure.query(({ ctx }) => dashboardSummary(ctx.db, ctx.scope)),
  /** The caller's own leave and tasks only: null without the tasks right or a leave coming. */
  dueWhileAway: staffProcedure.query(({ ctx }) => dueWhileAway(ctx.db, ctx.scope)),
  /**
   * The new firm's set-up steps, for those who set the firm up (settings.edit): null once dismissed
   * or done. Dismissing hides it for the whole firm.
   */
  setup: permissionProcedure('settings.edit').query(({ ctx }) => setupChecklist(ctx.db, ctx.scope)),
  dismissSetup: permissionProcedure('settings.edit').mutation(({ ctx }) =>
    dismissSetupChecklist(ctx.db, ctx.scope, ctx.meta),
  ),
});
